// Where the native loader reports: one line when the library is first loaded (which file, from
// where, ABI, which optional kernels are active) and a warning when hashing falls back to
// JavaScript. Injectable so an app passes its own logger (pino's `info(fields, msg)` shape fits);
// the default says nothing on success and turns warnings into process warnings, which Node prints
// once on stderr and which `--no-warnings` silences.

/** The two levels the loader uses, in pino's argument order. */
export interface NativeLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** Warning code of the process warnings the default logger emits. */
export const NATIVE_WARNING_CODE = 'VGWRDMA_NATIVE';

const processWarnings: NativeLogger = {
  info() {},
  warn(fields, message) {
    process.emitWarning(message, { code: NATIVE_WARNING_CODE, detail: JSON.stringify(fields) });
  },
};

let current: NativeLogger = processWarnings;

/** Sets the logger for what follows; call it before anything loads native code. */
export function setNativeLogger(logger: NativeLogger | undefined): void {
  current = logger ?? processWarnings;
}

export function nativeLogger(): NativeLogger {
  return current;
}
