// Reading a field the server sent that the SDK's types do not declare: `extraField`, and the type that
// refuses a declared name at compile time.

/**
 * The type of the `name` argument of {@link extraField}: the name itself when the record's type does not
 * declare it; when it does, a message saying to read the property instead (so the call does not compile).
 *
 * @typeParam Data - the record's type.
 * @typeParam Name - the field's name.
 */
export type UndeclaredField<Data, Name extends string> = Name extends keyof Data
  ? `"${Name}" is a declared field: read it as a property`
  : Name;

/**
 * Reads a field the server sent but this version of the SDK does not declare. The SDK's types list
 * exactly the fields of the API's specification, so a misspelt field is a compile error; a field the API
 * adds later still reaches you at run time, and this is the explicit, typed way to read it. When a later
 * SDK declares the field, the call stops compiling and tells you to read the property instead.
 *
 * @typeParam Data - the record's type, e.g. `User`.
 * @typeParam Name - the field's name.
 * @param record - a record the SDK returned (or any object).
 * @param name - the undeclared field.
 * @returns the field's value, `unknown` until you check it; `undefined` when the record lacks it.
 * @example
 * ```ts
 * const user = await client.users.retrieve(id);
 * const timezone = extraField(user, 'timezone'); // unknown
 * if (typeof timezone === 'string') console.log(timezone);
 * ```
 */
export function extraField<Data extends object, Name extends string>(
  record: Data,
  name: UndeclaredField<Data, Name>,
): unknown {
  return Object.hasOwn(record, name) ? (record as Readonly<Record<string, unknown>>)[name] : undefined;
}
