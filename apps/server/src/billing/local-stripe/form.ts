/**
 * Stripe's request bodies and query strings: `application/x-www-form-urlencoded` with bracketed
 * keys (`metadata[installation_id]=7`, `payment_method_types[0]=card`,
 * `invoice_settings[default_payment_method]=pm_1`), read back into nested objects.
 */
export type FormValue = string | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

export function parseForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const [head = '', ...rest] = key.split('[');
    const path = [head, ...rest.map((part) => part.replace(/\]$/, ''))];
    let node: FormObject = root;
    for (const [index, name] of path.entries()) {
      if (index === path.length - 1) {
        node[name] = value;
        break;
      }
      const next = node[name];
      if (typeof next === 'object') node = next;
      else node = node[name] = {};
    }
  }
  return root;
}

/** A field as a string, if it is one. */
export function text(form: FormObject, key: string): string | undefined {
  const value = form[key];
  return typeof value === 'string' ? value : undefined;
}

/** A nested object (metadata, invoice_settings, card), empty when absent. */
export function object(form: FormObject, key: string): FormObject {
  const value = form[key];
  return typeof value === 'object' ? value : {};
}

/** A nested object of strings only (metadata). */
export function strings(form: FormObject, key: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(object(form, key)).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}
