import { ADMIN_PREFIX } from '../../../serve/http/reserved-paths.js';

/**
 * Where the watch page is served, under the admin API's prefix: `/__admin/ui` (its script and style beside it,
 * `/__admin/ui/app.js` and `/__admin/ui/app.css`).
 */
export const UI_PATH = `${ADMIN_PREFIX}ui`;
