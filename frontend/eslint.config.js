import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The UI's own addresses are built by src/routes.ts only: a string or template starting with
// one of its first path segments is a hand-written route.
const ROUTE_LITERAL = '/^\\/(calendar|clients|notes|settings|admin)(\\/|\\?|$)/';
const APP_RULES = [
  {
    selector: `Literal[value=${ROUTE_LITERAL}], TemplateElement[value.raw=${ROUTE_LITERAL}]`,
    message: 'Build UI addresses with `routes` (src/routes.ts), not by hand.',
  },
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'src/api/schema.d.ts'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      // Type information for every file in tsconfig.json (src, e2e and the Vite configs).
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-syntax': ['error', ...APP_RULES],
    },
  },
  {
    files: ['src/routes.ts', 'src/routes.test.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
  },
);
