// @vgwrdma/test-kit: the workspace's shared test scaffolding (private, never published). Tests of
// every package reach the built app, the shims and other packages' builds only through here.

/** The SigV4 signer's hash constructor (kept here for the tests that sign with SignatureV4 themselves). */
export { Sha256 } from '@vgwrdma/backend-contract';
export { type AdminCli, accountFlags, adminCli } from './admin-cli.js';
export { adminRequest } from './admin-request.js';
export { AWS_BIN, type AwsOptions, type AwsRunner, awsCli, awsOk, type CliResult } from './aws-cli.js';
export {
  AZURITE_ACCOUNT,
  AZURITE_KEY,
  type Azurite,
  azuriteUnavailable,
  sharedAzurite,
} from './azurite.js';
export {
  allow,
  bucketArn,
  deny,
  objectsArn,
  type PolicyStatement,
  policyDocument,
  putBucketPolicy,
} from './bucket-policy.js';
export {
  type CephRgw,
  cephRgwUnavailable,
  type RgwUser,
  rgwClient,
  sharedCephRgw,
  sharedCephRgwDir,
  startPrivateCephRgw,
  stopSharedCephRgw,
} from './ceph-rgw.js';
export { collectOutput, type Exit, exitOf, type Output, waitForStdout } from './child-output.js';
export { killAllChildren, track } from './child-registry.js';
export { corsPreflight } from './cors-preflight.js';
export { EMBEDDED_CREDENTIALS, EmbeddedGateway, type EmbeddedGatewayOptions } from './embedded-gateway.js';
export { errorCode } from './error-code.js';
export { type FaultScene, type FaultSceneOptions, startFaultScene } from './fault-scene.js';
export { useFaultScene } from './fault-scene-hooks.js';
export { useFileResource } from './file-resource.js';
export {
  GATEWAY_CHILD_SCRIPT,
  type GatewayChild,
  type GatewayChildOptions,
  startGatewayChild,
} from './gateway-child-process.js';
export {
  type AppProcess,
  assertBuilt,
  type Credentials,
  type Finished,
  type GatewayProcess,
  loopbackArgs,
  ROOT_CREDENTIALS,
  runMain,
  type StartOptions,
  spawnMain,
  startApp,
  startGateway,
} from './gateway-process.js';
export {
  type Scene,
  type SceneOptions,
  type SceneRdma,
  type SceneSource,
  startScene,
} from './gateway-scene.js';
export {
  checkInProgress,
  DOC_HAPROXY_EXAMPLE,
  freePort,
  HAPROXY_BIN,
  type Haproxy,
  type HaproxyConfigOptions,
  type HaproxyOptions,
  type HaproxyServer,
  haproxyConfig,
  haproxyUnavailable,
  parseServerStats,
  parseServerStatus,
  settled,
  startHaproxy,
} from './haproxy.js';
export { type HttpText, httpText } from './http-text.js';
export { iamAccount } from './iam-account.js';
export { type IamScene, type IamSceneOptions, startIamScene } from './iam-scene.js';
export { type IamUser, writeUsers } from './iam-users.js';
export { IDLE_LIMIT_STATS } from './idle-limit-stats.js';
export { type ChildError, IpcChild, type IpcChildOptions } from './ipc-child.js';
export { APP_MAIN, distFile, FAKE_CUDART, REPO_ROOT, SHIM_BUILD_DIR, shimDir } from './paths.js';
export { type RdmaGatewayOptions, rdmaEnv, startRdmaGateway } from './rdma-gateway.js';
export { type SdkOutput, type SentError, sendError, sendSigned, sendWithToken } from './rdma-send.js';
export { type BuildNeeds, GATEWAY_PACKAGES, missingBuilds, requireBuilt } from './require-built.js';
export { type S3Answer, s3Answer } from './s3-answer.js';
export { s3Client } from './s3-client.js';
export { ALICE, BOB } from './sample-users.js';
export { type SdkPartInput, type SendPart, sdkMultipartUpload } from './sdk-multipart.js';
export { type SettleOptions, settle } from './settle.js';
export {
  presignUrl,
  type SignInput,
  sha256Hex,
  signHeaders,
  splitPathAndQuery,
} from './sigv4-signer.js';
export {
  type OwnedSlapd,
  SLAPD_ENV,
  type Slapd,
  setupSharedSlapd,
  sharedSlapd,
  slapdUnavailable,
  startSlapd,
} from './slapd.js';
export { makeTempDir, removeDir } from './temp-dir.js';
export { makeTestCa, type ServerCert, type TestCa } from './tls-certs.js';
export { type SceneTls, sceneTls } from './tls-scene.js';
