// Writes the OpenAPI document generated from the endpoint table next to package.json (with `--check`: fails when
// the committed one is stale).
import { buildOpenApiDocument } from '../dist/index.js';
import { emitGenerated } from './generated-file.js';

emitGenerated(
  new URL('../openapi.json', import.meta.url),
  `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`,
);
