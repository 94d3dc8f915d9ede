// Writes the OpenAPI document generated from the endpoint table next to package.json.
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../dist/index.js';

const target = new URL('../openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${target.pathname.split('/').slice(-2).join('/')}`);
