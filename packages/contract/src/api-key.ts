/**
 * The fixed prefix of every live API key (spec: "Keys start with a fixed live-key prefix"). The mock
 * generates keys with it, the CLI builds its placeholder and made-up keys from it, and the OpenAPI
 * document names it; none of them retypes it.
 *
 * @example
 * ```ts
 * import { API_KEY_PREFIX } from '@company-data/contract';
 * const looksLive = (key: string) => key.startsWith(API_KEY_PREFIX);
 * ```
 */
export const API_KEY_PREFIX = 'svc_live_';
