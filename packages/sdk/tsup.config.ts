import { defineConfig } from 'tsup';
import { library } from '../../build/tsup.js';

export default defineConfig(library());
