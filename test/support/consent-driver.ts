/**
 * Plays the user's browser on the reference cloud's consent pages over real HTTP: follows the
 * authorisation URL, signs in with the form on the page, and presses "Allow" or "Deny". Returns the
 * redirect the cloud sent back (the `Location` header) without following it.
 */
export interface Credentials {
  email: string;
  password: string;
}

interface Form {
  action: string;
  fields: Map<string, string>;
  buttons: { name?: string; value?: string; label: string }[];
  emailField?: string;
  passwordField?: string;
}

export async function consent(authorizeUrl: string, who: Credentials, decision: 'Allow' | 'Deny'): Promise<URL> {
  const cookies = new Map<string, string>();
  let response = await request(authorizeUrl, cookies);
  for (let step = 0; step < 4; step++) {
    if (response.status >= 300 && response.status < 400) return new URL(response.headers.get('location') ?? '', authorizeUrl);
    const html = await response.text();
    if (response.status !== 200) throw new Error(`consent page answered ${response.status}: ${html.slice(0, 200)}`);
    const forms = parseForms(html);
    const login = forms.find((f) => f.passwordField);
    const form = login ?? forms.find((f) => f.buttons.some((b) => b.label === decision));
    if (!form) throw new Error(`no form to continue on the page: ${html.slice(0, 300)}`);
    const body = new URLSearchParams([...form.fields]);
    if (login) {
      body.set(login.emailField ?? 'email', who.email);
      body.set(login.passwordField as string, who.password);
    } else {
      const button = form.buttons.find((b) => b.label === decision);
      if (button?.name) body.set(button.name, button.value ?? '');
    }
    response = await request(new URL(form.action, authorizeUrl).href, cookies, body);
  }
  throw new Error('the consent pages did not redirect');
}

async function request(url: string, cookies: Map<string, string>, body?: URLSearchParams): Promise<Response> {
  const headers: Record<string, string> = {};
  if (cookies.size > 0) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
  const response = await fetch(url, { method: body ? 'POST' : 'GET', headers, body: body?.toString(), redirect: 'manual' });
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    if (eq > 0) cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
  }
  return response;
}

function attr(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return match ? decodeEntities(match[2] ?? match[3] ?? '') : undefined;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function parseForms(html: string): Form[] {
  const forms: Form[] = [];
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const form: Form = { action: attr(match[1]!, 'action') ?? '', fields: new Map(), buttons: [] };
    for (const input of match[2]!.matchAll(/<input\b[^>]*>/gi)) {
      const name = attr(input[0], 'name');
      if (!name) continue;
      const type = (attr(input[0], 'type') ?? 'text').toLowerCase();
      if (type === 'password') form.passwordField = name;
      else if (type === 'email' || /mail/i.test(name)) form.emailField = name;
      else if (type === 'submit') form.buttons.push({ name, value: attr(input[0], 'value'), label: attr(input[0], 'value') ?? '' });
      else form.fields.set(name, attr(input[0], 'value') ?? '');
    }
    for (const button of match[2]!.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)) {
      form.buttons.push({ name: attr(button[1]!, 'name'), value: attr(button[1]!, 'value'), label: button[2]!.replace(/<[^>]*>/g, '').trim() });
    }
    forms.push(form);
  }
  return forms;
}
