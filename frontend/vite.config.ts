import { defineConfig } from 'vitest/config';

// `npm run dev` and `npm run preview` proxy the API to a backend on CAREVAULT_PORT (8000), so
// the UI and API share one origin as they do when the backend serves frontend/dist.
const backend = `http://127.0.0.1:${process.env.CAREVAULT_PORT ?? '8000'}`;
const proxy = {
  '/api': { target: backend, changeOrigin: false },
  '/health': { target: backend, changeOrigin: false },
};

// No @vitejs/plugin-react: esbuild compiles the JSX (automatic runtime), so the toolchain
// installs with every npm this project meets; the cost is full reloads instead of Fast Refresh.
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  server: { host: '127.0.0.1', port: Number(process.env.VITE_PORT ?? 5173), proxy },
  preview: { host: '127.0.0.1', port: Number(process.env.VITE_PORT ?? 4173), proxy },
  build: {
    outDir: 'dist',
    sourcemap: true,
    rollupOptions: {
      onwarn(warning, warn) {
        // Libraries' "use client" directives mean nothing without server components.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'SOURCEMAP_ERROR') return;
        warn(warning);
      },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
  },
});
