/** Names compared as people sort them: case- and accent-insensitive, "Lamp 2" before "Lamp 10". One collator for every list of names, made when first needed. */
let collator: Intl.Collator | undefined;

export function compareNames(a: string, b: string): number {
  collator ??= new Intl.Collator('en', { sensitivity: 'base', numeric: true });
  return collator.compare(a, b);
}
