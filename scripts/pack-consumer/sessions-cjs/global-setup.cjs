// A global setup of a CommonJS project's own, one that gives the server options (provideMockServer, as the
// testing guide shows): it requires the CommonJS build of `@company-data/mock-server/vitest/global-setup`.
const { provideMockServer } = require('@company-data/mock-server/vitest/global-setup');

/** @param {import('vitest/node').TestProject} project */
module.exports = (project) => provideMockServer(project, { maxSessions: 5 });
