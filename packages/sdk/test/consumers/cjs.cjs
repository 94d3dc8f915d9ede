// A plain CommonJS consumer of the built package, which also checks that `instanceof` holds across
// the CJS and ESM builds (each has its own copy of the error classes).
const {
  CompanyData,
  CompanyDataError,
  NotFoundError,
  RateLimitError,
  SDK_VERSION,
} = require('@company-data/sdk');

async function main() {
  const esm = await import('@company-data/sdk');
  const client = new CompanyData();
  const page = await client.users.list({ page_size: 2 });
  const user = await client.users.retrieve(page.data[0].id);
  let notFound = false;
  let crossBuild = false;
  try {
    await client.teams.retrieve('00000000-0000-4000-8000-000000000000');
  } catch (error) {
    notFound = error instanceof NotFoundError && error instanceof CompanyDataError;
    crossBuild =
      esm.NotFoundError !== NotFoundError &&
      error instanceof esm.NotFoundError &&
      error instanceof esm.CompanyDataError &&
      !(error instanceof esm.RateLimitError) &&
      new esm.RateLimitError('x', 1) instanceof RateLimitError;
  }
  await client.close();
  console.log(
    JSON.stringify({
      format: 'cjs',
      version: SDK_VERSION,
      count: page.pagination.count,
      id: user.id,
      notFound,
      crossBuild,
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
