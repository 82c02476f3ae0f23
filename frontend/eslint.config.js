import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The UI's own addresses are built by src/routes.ts only: a string or template starting with
// one of its first path segments is a hand-written route.
const ROUTE_LITERAL = '/^\\/(calendar|clients|notes|settings|admin)(\\/|\\?|$)/';
const HAND_WRITTEN_ROUTE = {
  selector: `Literal[value=${ROUTE_LITERAL}], TemplateElement[value.raw=${ROUTE_LITERAL}]`,
  message: 'Build UI addresses with `routes` (src/routes.ts), not by hand.',
};
// Every query key comes from the factory in src/api/keys.ts.
const INLINE_QUERY_KEY = {
  selector: [
    "Property[key.name='queryKey'] > ArrayExpression",
    "Property[key.name='queryKey'] > TSAsExpression > ArrayExpression",
    'CallExpression[callee.property.name=/QueryData$/] > ArrayExpression',
  ].join(', '),
  message: 'Use the query-key factory (`keys` in src/api/keys.ts), not an inline key.',
};
// Reads and changes of the API live in the resource modules of src/api/, side by side.
const QUERIES_OUTSIDE_API = {
  paths: [
    {
      name: '@tanstack/react-query',
      importNames: ['useQuery', 'useMutation', 'useInfiniteQuery', 'useSuspenseQuery'],
      message: 'Add a hook to the resource module in src/api/ (clients.ts, notes.ts, …) and use that.',
    },
  ],
};

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
      'no-restricted-syntax': ['error', HAND_WRITTEN_ROUTE, INLINE_QUERY_KEY],
      'no-restricted-imports': ['error', QUERIES_OUTSIDE_API],
    },
  },
  {
    files: ['src/routes.ts', 'src/routes.test.ts'],
    rules: { 'no-restricted-syntax': ['error', INLINE_QUERY_KEY] },
  },
  {
    files: ['src/api/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
  },
);
