// The project's main job. Until the SDK and mock server land, it prints the contract's operation table.
import { endpointList, rootPath } from '@company-data/contract';

console.log('Company Data API operations (from @company-data/contract):\n');
for (const endpoint of endpointList) {
  const auth = endpoint.auth === 'apiKey' ? 'API key' : 'path token';
  console.log(
    `${endpoint.method.padEnd(5)} ${rootPath(endpoint).padEnd(48)} ${auth.padEnd(11)} ${endpoint.summary}`,
  );
}
