import type { TestProject } from 'vitest/node';
import { start } from './harness';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  const running = await start();
  console.log(`e2e: CareVault at ${running.baseUrl} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  project.provide('baseUrl', running.baseUrl);
  return () => running.stop();
}
