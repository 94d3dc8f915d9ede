import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // esbuild renames a class that refers to itself (`class _CompanyDataError`); keep the source's names, so an
  // uncaught error, its stack and `constructor.name` say `CompanyDataError`.
  keepNames: true,
  tsconfig: '../../tsconfig.base.json',
});
