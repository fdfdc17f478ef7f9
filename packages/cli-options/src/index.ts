// @vgwrdma/cli-options — command lines derived from the packages' option schemas. A package
// exports its options once, as a zod object whose flag fields carry metadata (`option()`); this
// module derives the argv parser, the environment fallback, the --help lines and the usage errors
// from it. One boolean spelling, one integer rule, one byte-size parser.

export {
  describeParseArgsError,
  type ParsedArgv,
  type ParserOptions,
  parseArgv,
  parserOptions,
} from './argv.js';
export * from './byte-size.js';
export { checkOptions } from './check.js';
export { booleanText, byteSize, integer, nonEmpty, octalMode, parseBooleanText } from './fields.js';
export { helpLines } from './help.js';
export { type CliOption, cliOptions, cliRegistry, HELP_OPTION, type OptionMeta, option } from './option.js';
export {
  describeFlag,
  type Env,
  type GivenValues,
  optionLevel,
  resolveEach,
  resolveOptions,
} from './resolve.js';
