import { defineConfig } from 'tsup';
import { libraryWithCli } from '../../scripts/tsup-library-with-cli.js';

export default defineConfig(libraryWithCli());
