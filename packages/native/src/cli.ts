// The command line of @vgwrdma/native's `vgwrdma-native` bin (bin/vgwrdma-native.mjs), i.e.
// `npx @vgwrdma/native build`: one command today, `build` (build-from-source.ts). Errors print
// their message and exit non-zero, no stack.
import { BuildCommandError, buildFromSource, parseBuildArgs } from './build-from-source.js';

const COMMANDS: Readonly<Record<string, (argv: string[]) => void>> = {
  build: (argv) => void buildFromSource(parseBuildArgs(argv)),
};

const USAGE = `Usage: npx @vgwrdma/native <command>\n\nCommands:\n  build   build libvgwrdma_shims.so from source (--help for options)`;

function main(argv: string[]): number {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (command === undefined) {
    console.error(name === undefined || name === '--help' ? USAGE : `unknown command ${name}\n\n${USAGE}`);
    return name === '--help' ? 0 : 2;
  }
  try {
    command(rest);
    return 0;
  } catch (e) {
    if (!(e instanceof BuildCommandError) && !(e instanceof Error && e.name === 'NativeLoadError')) throw e;
    const code = e instanceof BuildCommandError ? e.exitCode : 1;
    (code === 0 ? console.log : console.error)(e.message);
    return code;
  }
}

process.exitCode = main(process.argv.slice(2));
