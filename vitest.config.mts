import {defineConfig} from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // Some tests run CLI scripts; leave room for a busy 2-core machine.
    testTimeout: 60_000,
  },
});
