// The whole life of the gateway process (`vgwrdma admin ...` is handed to admin/admin-command.ts):
// parse the command line, open the backend (and with --rdma-ip the RDMA plugin; with --cert/--key
// the TLS pair), serve until SIGINT/SIGTERM — re-reading the TLS pair and reopening --access-log
// FILE on SIGHUP — then shut the gateway down in order: HTTP server, RDMA plugin, backend. Returns
// the exit status instead of exiting, so tests can drive it; main.ts is the only place that calls
// process.exit.
import { serviceUrl } from '@vgwrdma/backend-azure';
import type { Backend } from '@vgwrdma/backend-contract';
import type { Env } from '@vgwrdma/cli-options';
import type { RdmaPlugin } from '@vgwrdma/cu-backend';
import { StartupError, UsageError } from '@vgwrdma/errors';
import { createGateway, type Gateway, type IamStore } from '@vgwrdma/gateway';
import { installNativeKernels } from '@vgwrdma/native/kernels';
import { createAccessLog } from './access-log/index.js';
import { runAdmin } from './admin/admin-command.js';
import { adoptOwnerlessBuckets } from './adopt-buckets.js';
import { formatBanner } from './banner.js';
import { type GatewayConfig, parseCommandLine } from './config.js';
import { exposureWarning } from './exposure.js';
import { openIam } from './iam/open-iam.js';
import { weakSecretWarnings } from './iam/weak-secrets.js';
import type { ListenAddress } from './listen-address.js';
import { createLoggers, type Loggers } from './logger.js';
import { createAppMetrics, type MetricsServer, startMetricsServer } from './metrics/index.js';
import { openBackend } from './open-backend.js';
import { openRdma } from './open-rdma.js';
import { watchReloadSignal } from './reload-signal.js';
import { watchShutdownSignals } from './signals.js';
import { loadTlsFiles } from './tls-files.js';
import { reloadTls } from './tls-reload.js';
import { VERSION } from './version.js';
import { createConsoleStats } from './webui/console-stats.js';
import { browserEndpoint, type OpenedWebui, openWebui, urlEndpoint } from './webui/open-webui.js';

export interface RunIO {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** Called on a second shutdown signal; the default exits the process at once. */
  readonly exitNow?: (code: number) => void;
}

const processIO: RunIO = { stdout: process.stdout, stderr: process.stderr };

export async function run(argv: readonly string[], env: Env, io: RunIO = processIO): Promise<number> {
  // `vgwrdma admin ...` is a client of a running gateway, with its own flags.
  if (argv[0] === 'admin') return runAdmin(argv.slice(1), env, io);
  let command: ReturnType<typeof parseCommandLine>;
  try {
    command = parseCommandLine(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(
      `vgwrdma: ${error.message}\nRun 'vgwrdma --help' (or 'vgwrdma posix --help') for usage.\n`,
    );
    return error.exitCode;
  }
  if (command.kind !== 'serve') {
    io.stdout.write(command.text.endsWith('\n') ? command.text : `${command.text}\n`);
    return 0;
  }
  return serve(command.config, io);
}

async function serve(config: GatewayConfig, io: RunIO): Promise<number> {
  let loggers: Loggers;
  try {
    // A planted symbolic link or an unwritable --access-log stops the start here, naming the path.
    loggers = createLoggers(config);
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    io.stderr.write(`vgwrdma: ${error.message}\n`);
    return error.exitCode;
  }
  const { logger } = loggers;
  const signals = watchShutdownSignals(io.exitNow ?? ((code) => process.exit(code)));
  let reload: (() => void) | undefined;
  const reloadSignal = watchReloadSignal(() => reload?.());
  let backend: Backend | undefined;
  let rdma: RdmaPlugin | undefined;
  let gateway: Gateway | undefined;
  let metricsServer: MetricsServer | undefined;
  let iam: IamStore | undefined;
  let webui: OpenedWebui | undefined;
  let stopping = false;
  try {
    // Native hashing first, so its start line (which library, which kernels) goes to our log; a
    // VGWRDMA_SHIM_DIR without the library stops the start here, naming the directory.
    installNativeKernels({ logger });
    // A missing or unusable certificate or key stops the start before anything is opened.
    const tls = config.tls === undefined ? undefined : await loadTlsFiles(config.tls);
    backend = await openBackend(config);
    // The root account, plus the account store (users.json, LDAP or an S3 bucket) and the admin
    // user API when one is configured; an unreachable LDAP server or IAM bucket stops the start.
    iam = await openIam(config);
    // --adopt-ownerless-buckets: buckets without a recorded owner get one before anything is served.
    if (config.adoptOwnerless !== undefined)
      await adoptOwnerlessBuckets(backend, iam, config.adoptOwnerless, logger);
    // Accounts whose secret a captured request would give away to an offline guesser: say so.
    for (const line of await weakSecretWarnings(iam)) io.stderr.write(line);
    // With --rdma-ip: the RDMA plugin, which installs itself into the gateway (its middleware after
    // authentication, CuServer around the backend, PATCH /rdma-stats, the access log's RDMA fields).
    if (config.rdma !== undefined) rdma = await openRdma(config.rdma);
    // Per-request observers: the access log (JSON or AWS's format) and the Prometheus metrics.
    const accessLog = loggers.accessLog ? createAccessLog(config.accessLogFormat, loggers.access) : undefined;
    const metrics =
      config.metrics === undefined ? undefined : createAppMetrics({ perBucket: config.metricsPerBucket });
    // With --webui: the console's listener first (the gateway's CORS rule needs its origin) and
    // the dashboard's counters, fed by the same per-request observations as the metrics.
    const consoleStats = config.webui === undefined ? undefined : createConsoleStats();
    if (config.webui !== undefined && consoleStats !== undefined)
      webui = await openWebui(config.webui, { stats: consoleStats, credentials: iam, region: config.region });
    gateway = createGateway({
      backend,
      plugins: rdma ? [rdma] : [],
      iam,
      region: config.region,
      bucketStateCache: { ttlMs: config.bucketCacheTtlMs },
      readonly: config.readonly,
      ...config.limits,
      disableAcl: config.disableAcl,
      logger: loggers.gatewayLogger,
      observers: [
        ...(accessLog ? [accessLog.observer] : []),
        ...(metrics ? [metrics.observer] : []),
        ...(consoleStats ? [consoleStats.observer] : []),
      ],
      ...(webui === undefined ? {} : { consoleOrigins: webui.origins }),
      ...(config.healthPath === undefined ? {} : { healthPath: config.healthPath }),
      ...(config.readyPath === undefined ? {} : { readyPath: config.readyPath }),
      ...(config.events === undefined ? {} : { eventNotifications: config.events }),
      ...(config.virtualDomain === undefined ? {} : { virtualHostDomain: config.virtualDomain }),
      multipartMaxParts: config.requests.maxParts,
      copyObjectThreshold: config.requests.copyObjectThreshold,
      ...(config.requests.corsAllowOrigin === undefined
        ? {}
        : { corsAllowOrigin: config.requests.corsAllowOrigin }),
    });
    if (consoleStats) {
      const gw = gateway;
      consoleStats.attach(() => gw.limitStats(), rdma, config.rdma?.transport ?? '');
    }
    if (metrics && config.metrics) {
      const gw = gateway;
      const events = gw.events;
      metrics.attach(() => gw.limitStats(), rdma, events ? () => events.stats() : undefined);
      metricsServer = await startMetricsServer(metrics.registry, config.metrics);
    }
    // With --admin-port the S3 listener refuses admin operations and the admin listener the rest.
    const running = await gateway.listen({
      ...listenTarget(config.listen, config.socketPerm),
      ...(tls === undefined ? {} : { tls }),
      serves: config.admin === undefined ? 'all' : 's3',
    });
    const admin = config.admin;
    const adminTls = admin?.tls === undefined ? undefined : await loadTlsFiles(admin.tls);
    const adminRunning =
      admin === undefined
        ? undefined
        : await gateway.listen({
            ...listenTarget(admin.listen, config.socketPerm),
            ...(adminTls === undefined ? {} : { tls: adminTls }),
            serves: 'admin',
          });
    if (webui !== undefined) {
      const s3 =
        config.webui?.s3Url === undefined
          ? browserEndpoint(config.listen, running.host, running.port, tls !== undefined)
          : urlEndpoint(config.webui.s3Url);
      webui.server.setConfig({
        version: VERSION,
        region: config.region,
        s3,
        admin:
          adminRunning === undefined || admin === undefined
            ? s3
            : browserEndpoint(admin.listen, adminRunning.host, adminRunning.port, adminTls !== undefined),
        rdma: rdma !== undefined,
      });
    }
    reload = () => {
      reopenAccessLog(config.accessLog, loggers);
      void reloadTls(config.tls, running, logger);
    };
    io.stdout.write(
      formatBanner({
        config,
        host: running.host,
        port: running.port,
        ...(adminRunning ? { admin: { host: adminRunning.host, port: adminRunning.port } } : {}),
        ...(metricsServer ? { metrics: { host: metricsServer.host, port: metricsServer.port } } : {}),
        ...(webui ? { webui: webui.url } : {}),
      }),
    );
    // Reachable from other hosts with a published or short root secret: say so, on stderr.
    const warning =
      config.listen.socketPath === undefined ? exposureWarning(running.host, config.secret) : undefined;
    if (warning !== undefined) io.stderr.write(warning);
    const where =
      config.backend.kind === 's3'
        ? { upstream: config.backend.options.endpoint ?? 'AWS S3' }
        : config.backend.kind === 'azure'
          ? { upstream: serviceUrl(config.backend.options) }
          : { root: config.backend.root };
    logger.info({ url: running.url, ...where }, 'gateway listening');

    const signal = await signals.stopRequested;
    logger.info({ signal }, 'shutting down');
    stopping = true;
    // HTTP server (in-flight requests get a grace period), then the RDMA plugin, then the backend.
    await webui?.server.close();
    await gateway.shutdown();
    await metricsServer?.close();
    await iam.close();
    // The last line says whether the drain (--shutdown-timeout) cut anything.
    const cut = gateway.limitStats().cutAtShutdown;
    logger.info({ requestsCut: cut }, `stopped: ${cut} ${cut === 1 ? 'request' : 'requests'} cut`);
    return 0;
  } catch (error) {
    const message = stopping
      ? `error while shutting down: ${error instanceof Error ? error.message : String(error)}`
      : describeStartupError(error, config);
    io.stderr.write(`vgwrdma: ${message}\n`);
    if (!stopping) await shutDownAfterFailedStart(gateway, rdma, backend);
    await webui?.server.close().catch(() => {});
    await metricsServer?.close();
    await iam?.close().catch(() => {});
    return error instanceof StartupError ? error.exitCode : 1;
  } finally {
    signals.dispose();
    reloadSignal.dispose();
    loggers.flush();
  }
}

/** SIGHUP: --access-log FILE opened again (logrotate); a refusal (a link planted there) keeps the open file. */
function reopenAccessLog(file: string | undefined, loggers: Loggers): void {
  if (file === undefined) return;
  try {
    loggers.reopen();
    loggers.logger.info({ file }, 'access log reopened');
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    loggers.logger.error({ file }, `access log reopen failed, still writing to the open file: ${why}`);
  }
}

/** The listen() target of a --port / --admin-port address: TCP, or a unix socket with --socket-perm. */
function listenTarget(address: ListenAddress, socketPerm: number | undefined) {
  return address.socketPath === undefined
    ? { port: address.port, host: address.host }
    : {
        port: 0,
        socketPath: address.socketPath,
        ...(socketPerm === undefined ? {} : { socketMode: socketPerm }),
      };
}

/** What a failed start had opened, closed in the gateway's order; later failures are ignored. */
async function shutDownAfterFailedStart(
  gateway: Gateway | undefined,
  rdma: RdmaPlugin | undefined,
  backend: Backend | undefined,
): Promise<void> {
  if (gateway) return gateway.shutdown().catch(() => {});
  await rdma?.shutdown().catch(() => {});
  await backend?.shutdown().catch(() => {});
}

function describeStartupError(error: unknown, config: GatewayConfig): string {
  if (error instanceof StartupError) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const { host, port, socketPath } = config.listen;
  if (socketPath !== undefined && (code === 'EADDRINUSE' || code === 'EACCES' || code === 'ENOENT'))
    return `cannot listen on unix socket ${socketPath}: ${(error as Error).message}`;
  if (code === 'EADDRINUSE')
    return `cannot listen on ${host}:${port}: the address is already in use (try --port)`;
  if (code === 'EADDRNOTAVAIL')
    return `cannot listen on ${host}:${port}: no such local address (check --port)`;
  if (code === 'EACCES')
    return `cannot listen on ${host}:${port}: permission denied (ports below 1024 need privileges)`;
  return `failed to start: ${error instanceof Error ? error.message : String(error)}`;
}
