#!/usr/bin/env node
// Generates, from the backend's OpenAPI document (the one script for it):
//   src/api/schema.d.ts           the types of every path and schema (openapi-typescript)
//   src/api/limits.generated.ts   the maxLength of every string property, as values the UI
//                                 checks before sending (the SOAP sections' limit, form fields)
//   node scripts/generate-api.mjs           write both
//   node scripts/generate-api.mjs --check   regenerate into a temp dir; exit 1 on drift
// The document comes from the app factory (no database needed) through the project's
// virtualenv; CAREVAULT_PYTHON overrides the interpreter, CAREVAULT_OPENAPI_FILE reads a file.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
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

/** A property's maxLength: its own, or that of its string variant (`anyOf: [string, null]`). */
function maxLengthOf(property) {
  if (typeof property?.maxLength === 'number') return property.maxLength;
  for (const variant of [...(property?.anyOf ?? []), ...(property?.oneOf ?? [])]) {
    if (variant?.type === 'string' && typeof variant.maxLength === 'number') return variant.maxLength;
  }
  return undefined;
}

function limitsModule(document) {
  const lines = [];
  const schemas = document.components?.schemas ?? {};
  for (const name of Object.keys(schemas).sort()) {
    const properties = schemas[name].properties ?? {};
    const limits = Object.keys(properties)
      .sort()
      .flatMap((property) => {
        const limit = maxLengthOf(properties[property]);
        return limit === undefined ? [] : [`${property}: ${limit}`];
      });
    if (limits.length > 0) lines.push(`  ${name}: { ${limits.join(', ')} },`);
  }
  return (
    banner +
    "import type { components } from './schema';\n\n" +
    "type Schemas = components['schemas'];\n\n" +
    "/** The `maxLength` of every string property of the API's schemas, by schema and property\n" +
    ' * (characters, as the server counts them: Unicode code points). */\n' +
    'export const maxLength = {\n' +
    lines.join('\n') +
    '\n} as const satisfies { [S in keyof Schemas]?: { [P in keyof Schemas[S]]?: number } };\n'
  );
}

const document = JSON.parse(openapiDocument());
const ast = await openapiTS(document, { alphabetize: true, defaultNonNullable: false });
const outputs = [
  { target, text: banner + astToString(ast) },
  { target: join(frontend, 'src/api/limits.generated.ts'), text: limitsModule(document) },
];

if (check) {
  const dir = mkdtempSync(join(tmpdir(), 'carevault-api-'));
  const stale = [];
  for (const output of outputs) {
    const fresh = join(dir, basename(output.target));
    writeFileSync(fresh, output.text);
    const committed = existsSync(output.target) ? readFileSync(output.target, 'utf8') : '';
    if (committed !== output.text) stale.push([relative(frontend, output.target), fresh]);
  }
  if (stale.length > 0) {
    for (const [file, fresh] of stale) {
      console.error(`${file} is out of date with the backend OpenAPI document (a fresh copy: ${fresh}).`);
    }
    console.error('Run `npm run generate:api` and commit the result.');
    process.exitCode = 1;
  } else {
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `${outputs.map((output) => relative(frontend, output.target)).join(' and ')} match the backend OpenAPI document.`,
    );
  }
} else {
  for (const output of outputs) {
    writeFileSync(output.target, output.text);
    console.log(`wrote ${output.target}`);
  }
}
