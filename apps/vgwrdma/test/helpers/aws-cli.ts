// The AWS CLI runner lives in the test kit (the scene's `aws` fixture uses it); this module keeps
// the app tests' old import path working.
export { AWS_BIN, type AwsOptions, type AwsRunner, awsCli, type CliResult } from '@vgwrdma/test-kit';
