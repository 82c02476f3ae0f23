/**
 * Starts what the browser tests run against, and stops it afterwards:
 * - E2E_BASE_URL set: a CareVault that is already running there (nothing is started);
 * - otherwise the real backend, `python -m carevault run` (embedded PostgreSQL in a temp data
 *   dir, migrations, demo practice) on a free loopback port, and the UI from either
 *   - E2E_UI=backend (default): the backend itself, serving frontend/dist at /, or
 *   - E2E_UI=preview: `vite preview` on another free port, proxying /api and /health to it.
 * Everything listens on 127.0.0.1 only, and every wait is bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { routes } from '../src/routes';

export const FRONTEND = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const RESULTS = join(FRONTEND, 'test-results');

export interface Running {
  baseUrl: string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

async function waitFor(
  url: string,
  accept: (response: Response) => boolean | Promise<boolean>,
  timeoutMs: number,
  child?: ChildProcess,
) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`${url}: the process exited with ${child.exitCode} before it answered`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (await accept(response)) return;
      last = `status ${response.status}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not become ready within ${timeoutMs / 1000} s (last: ${last})`);
}

function stopProcess(child: ChildProcess, name: string): Promise<void> {
  return new Promise((resolveStop) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolveStop();
    const force = setTimeout(() => {
      console.warn(`${name} did not stop within 15 s; killing it`);
      child.kill('SIGKILL');
    }, 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolveStop();
    });
    child.kill('SIGTERM');
  });
}

export interface StartOptions {
  /** Extra CAREVAULT_* settings for the backend (ignored with E2E_BASE_URL). */
  env?: Record<string, string>;
  /** A name for the log files under test-results/. */
  name?: string;
}

export async function start({ env: extraEnv = {}, name = 'backend' }: StartOptions = {}): Promise<Running> {
  if (process.env.E2E_BASE_URL) {
    const baseUrl = process.env.E2E_BASE_URL.replace(/\/$/, '');
    await waitFor(`${baseUrl}/health/ready`, (r) => r.ok, 30_000);
    return { baseUrl, stop: () => Promise.resolve() };
  }

  mkdirSync(RESULTS, { recursive: true });
  const python = process.env.CAREVAULT_PYTHON ?? join(FRONTEND, '..', '.venv', 'bin', 'python');
  if (!existsSync(python))
    throw new Error(`no Python at ${python}: run \`make install\` first, or set CAREVAULT_PYTHON`);
  const dataDir = mkdtempSync(join(tmpdir(), 'carevault-e2e-'));
  const backendPort = await freePort();
  const backendLog = openSync(join(RESULTS, `${name}.log`), 'w');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CAREVAULT_ENV: 'development',
    CAREVAULT_DATA_DIR: dataDir,
    CAREVAULT_HOST: '127.0.0.1',
    CAREVAULT_PORT: String(backendPort),
    CAREVAULT_KEY_PROVIDER: 'local',
    CAREVAULT_KEYRING_FILE: join(dataDir, 'keyring.json'),
    CAREVAULT_PHI_BACKEND: 'aesgcm',
    ...extraEnv,
  };
  delete env.CAREVAULT_DATABASE_URL; // the embedded PostgreSQL under the temp data dir
  const backend = spawn(python, ['-m', 'carevault', 'run', '--port', String(backendPort)], {
    cwd: join(FRONTEND, '..'),
    env,
    stdio: ['ignore', backendLog, backendLog],
  });
  const children: Array<[ChildProcess, string]> = [[backend, 'backend']];
  const stop = async () => {
    for (const [child, name] of children.reverse()) await stopProcess(child, name);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const backendUrl = `http://127.0.0.1:${backendPort}`;
    await waitFor(`${backendUrl}/health/ready`, (r) => r.ok, 120_000, backend);
    const mode = process.env.E2E_UI ?? 'backend';
    if (mode === 'backend') {
      await waitFor(
        `${backendUrl}${routes.calendar()}`,
        async (r) => r.ok && (await r.text()).includes('id="root"'),
        10_000,
        backend,
      ).catch(() => {
        throw new Error(
          'the backend does not serve the built UI at / (is frontend/dist built, and does this backend serve it?); ' +
            'set E2E_UI=preview to serve it with `vite preview` instead',
        );
      });
      return { baseUrl: backendUrl, stop };
    }
    if (mode !== 'preview') throw new Error(`E2E_UI must be "backend" or "preview", not ${mode}`);
    const previewPort = await freePort();
    const previewLog = openSync(join(RESULTS, `${name}-preview.log`), 'w');
    const preview = spawn(
      join(FRONTEND, 'node_modules', '.bin', 'vite'),
      ['preview', '--strictPort', '--port', String(previewPort)],
      {
        cwd: FRONTEND,
        env: { ...process.env, CAREVAULT_PORT: String(backendPort), VITE_PORT: String(previewPort) },
        stdio: ['ignore', previewLog, previewLog],
      },
    );
    children.push([preview, 'vite preview']);
    const previewUrl = `http://127.0.0.1:${previewPort}`;
    await waitFor(`${previewUrl}/health/ready`, (r) => r.ok, 30_000, preview);
    return { baseUrl: previewUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
