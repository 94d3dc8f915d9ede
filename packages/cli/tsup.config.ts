import { defineConfig } from 'tsup';
import { libraryWithCli } from '../../build/tsup.js';

export default defineConfig(libraryWithCli());
