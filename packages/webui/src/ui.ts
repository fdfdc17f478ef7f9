// Shared page pieces: the error box (S3 code and message; "sign in again" when the keys or the
// connection are the problem), field rows, and the hook pages use to ask for a new sign-in.
import { h } from './dom.js';
import { describe, wantsSignIn } from './errors.js';

let signInAgain: (reason: string) => void = () => {};

export function onSignInAgain(handler: (reason: string) => void): void {
  signInAgain = handler;
}

export function errorBox(error: unknown): HTMLElement {
  const { title, detail } = describe(error);
  return h(
    'div',
    { class: 'error', role: 'alert' },
    h('strong', { class: 'error-code' }, title),
    ' ',
    h('span', { class: 'error-message' }, detail),
    wantsSignIn(error)
      ? h(
          'button',
          { type: 'button', class: 'link', onclick: () => signInAgain(`${title}: ${detail}`) },
          'Sign in again',
        )
      : null,
  );
}

/** Shows `error` in `slot` (replacing what was there), or clears it. */
export function showError(slot: Element, error: unknown | undefined): void {
  slot.replaceChildren(...(error === undefined ? [] : [errorBox(error)]));
}

export function field(label: string, input: HTMLElement): HTMLElement {
  return h('label', { class: 'field' }, h('span', {}, label), input);
}

/** Runs `work`, showing its failure in `slot`; returns whether it succeeded. */
export async function attempt(slot: Element, work: () => Promise<unknown>): Promise<boolean> {
  showError(slot, undefined);
  try {
    await work();
    return true;
  } catch (error) {
    showError(slot, error);
    return false;
  }
}

export function heading(text: string, ...extra: (Node | string)[]): HTMLElement {
  return h('div', { class: 'page-head' }, h('h1', {}, text), ...extra);
}
