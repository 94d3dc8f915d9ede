import { defineConfig } from 'tsup';
import { library } from '../../build/tsup.js';

// opentelemetry.ts is the opt-in OpenTelemetry entry (`@company-data/sdk/opentelemetry`): `@opentelemetry/api`
// stays external, an optional peer.
export default defineConfig(library(['src/index.ts', 'src/opentelemetry.ts']));
