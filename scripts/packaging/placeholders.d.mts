// Types for placeholders.mjs, so its unit tests are type-checked with the rest of the repository.

export function fillPlaceholders(command: string, printed: string | undefined): string;
