/** The path prefix of the admin HTTP API, reserved on every origin the mock answers. */
export const ADMIN_PREFIX = '/__admin/';
