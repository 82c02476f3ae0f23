#!/usr/bin/env node
// Generates src/api/schema.d.ts from the backend's OpenAPI document (the one script for it).
//   node scripts/generate-api.mjs           write src/api/schema.d.ts
//   node scripts/generate-api.mjs --check   regenerate into a temp dir; exit 1 on drift
// The document comes from the app factory (no database needed) through the project's
// virtualenv; CAREVAULT_PYTHON overrides the interpreter, CAREVAULT_OPENAPI_FILE reads a file.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const frontend = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(frontend, 'src/api/schema.d.ts');
const check = process.argv.includes('--check');

function openapiDocument() {
  if (process.env.CAREVAULT_OPENAPI_FILE) {
    return readFileSync(process.env.CAREVAULT_OPENAPI_FILE, 'utf8');
  }
  const python = process.env.CAREVAULT_PYTHON ?? join(frontend, '..', '.venv', 'bin', 'python');
  if (!existsSync(python)) {
    console.error(`no Python at ${python}: run \`make install\` first, or set CAREVAULT_PYTHON`);
    process.exit(2);
  }
  const code =
    'import json; from carevault.api.app import create_app; ' +
    "print(json.dumps(create_app(database_url='postgresql+asyncpg://x/y').openapi(), sort_keys=True))";
  return execFileSync(python, ['-c', code], {
    cwd: join(frontend, '..'),
    encoding: 'utf8',
    env: { ...process.env, CAREVAULT_LOG_LEVEL: 'warning' },
    maxBuffer: 64 * 1024 * 1024,
  });
}

const banner =
  '// Generated from the backend OpenAPI document by scripts/generate-api.mjs. Do not edit:\n' +
  '// run `npm run generate:api` after changing the API.\n\n';
const ast = await openapiTS(JSON.parse(openapiDocument()), { alphabetize: true, defaultNonNullable: false });
const generated = banner + astToString(ast);

if (check) {
  const dir = mkdtempSync(join(tmpdir(), 'carevault-api-'));
  try {
    const fresh = join(dir, 'schema.d.ts');
    writeFileSync(fresh, generated);
    const committed = existsSync(target) ? readFileSync(target, 'utf8') : '';
    if (committed !== readFileSync(fresh, 'utf8')) {
      console.error(
        'src/api/schema.d.ts is out of date with the backend OpenAPI document.\n' +
          `A fresh copy is at ${fresh} for comparison; run \`npm run generate:api\` and commit it.`,
      );
      process.exitCode = 1;
    } else {
      console.log('src/api/schema.d.ts matches the backend OpenAPI document.');
    }
  } finally {
    if (!process.exitCode) rmSync(dir, { recursive: true, force: true });
  }
} else {
  writeFileSync(target, generated);
  console.log(`wrote ${target}`);
}
