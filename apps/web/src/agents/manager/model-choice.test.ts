import { MODEL_CATALOG } from '@tandem/shared';
import { afterEach, describe, expect, it } from 'vitest';
import {
  chooseModel,
  chooseReviewModel,
  defaultModel,
  modelMenu,
  readPreferredReviewModel,
  storePreferredModel,
  storePreferredReviewModel,
  readPreferredModel,
  type AvailableModel,
} from './model-choice';

/** GET /api/models as a viewer sees it: `available` lists the keys that can run here. */
function catalog(admin: boolean, available: string[] | 'all' = 'all'): AvailableModel[] {
  return MODEL_CATALOG.filter((m) => admin || !m.admin_only).map((m) => {
    const ok = available === 'all' || available.includes(m.key);
    return { ...m, available: ok, unavailable_reason: ok ? null : 'no key' };
  });
}

describe('defaultModel', () => {
  it('is the first core-recommended model that can run', () => {
    expect(defaultModel(catalog(false), false)).toBe('sonnet-4-5');
    expect(defaultModel(catalog(false, ['gpt-5-fast', 'opus-4-1']), false)).toBe('gpt-5-fast');
    expect(defaultModel(catalog(true, ['sonnet-4', 'gpt-5-fast']), true)).toBe('sonnet-4');
  });

  // Issue 16: a model that cannot run is never preselected while another one can.
  it('falls back to any model that can run when no recommended one can', () => {
    expect(defaultModel(catalog(false, ['opus-4-1']), false)).toBe('opus-4-1');
  });

  it("falls back to 'sonnet-4-5' only when no model can run at all", () => {
    expect(defaultModel(catalog(false, []), false)).toBe('sonnet-4-5');
    expect(defaultModel([], false)).toBe('sonnet-4-5');
  });

  it("prefers the server's default (TANDEM_DEFAULT_MODEL) when it can run", () => {
    expect(defaultModel(catalog(false), false, 'gpt-5-fast')).toBe('gpt-5-fast');
    expect(defaultModel(catalog(false, ['sonnet-4-5']), false, 'gpt-5-fast')).toBe('sonnet-4-5');
    expect(defaultModel(catalog(false, []), false, 'gpt-5-fast')).toBe('gpt-5-fast');
  });
});

describe('chooseModel', () => {
  it('keeps a valid stored choice', () => {
    expect(chooseModel('opus-4-1', catalog(false), false)).toBe('opus-4-1');
  });

  it('falls back to the default for unknown, unavailable or (for non-admins) admin-only choices', () => {
    expect(chooseModel(null, catalog(false), false)).toBe('sonnet-4-5');
    expect(chooseModel('gpt-9', catalog(false), false)).toBe('sonnet-4-5');
    expect(chooseModel('opus-4-1', catalog(false, ['sonnet-4-5']), false)).toBe('sonnet-4-5');
    // Admin-only models are for admins only, even if a list includes them.
    expect(chooseModel('o3', catalog(true), false)).toBe('sonnet-4-5');
    expect(chooseModel('o3', catalog(true), true)).toBe('o3');
  });
});

describe('chooseModel with defaults', () => {
  it('takes the stored choice, then the repository default, then the server default', () => {
    const list = catalog(false, ['opus-4-1', 'gpt-5-fast', 'sonnet-4-5']);
    const defaults = { server: 'sonnet-4-5', repository: 'gpt-5-fast' };
    expect(chooseModel('opus-4-1', list, false, defaults)).toBe('opus-4-1');
    expect(chooseModel(null, list, false, defaults)).toBe('gpt-5-fast');
    expect(chooseModel(null, list, false, { server: 'opus-4-1', repository: null })).toBe('opus-4-1');
    // A repository default that cannot run here is passed over.
    expect(chooseModel(null, catalog(false, ['sonnet-4-5']), false, defaults)).toBe('sonnet-4-5');
  });
});

describe('chooseReviewModel', () => {
  it('never preselects a reviewer that cannot run here', () => {
    expect(chooseReviewModel(null, catalog(false, ['sonnet-4-5']), false)).toBeNull();
    expect(chooseReviewModel('gpt-5-medium', catalog(false, ['sonnet-4-5']), false)).toBeNull();
    expect(
      chooseReviewModel(null, catalog(false, ['gemini-2-5-pro']), false, { repository: 'gemini-2-5-pro' }),
    ).toBe('gemini-2-5-pro');
  });

  it("defaults to 'gpt-5-medium'", () => {
    expect(chooseReviewModel(null, catalog(false), false)).toBe('gpt-5-medium');
    expect(chooseReviewModel('nope', catalog(false), false)).toBe('gpt-5-medium');
    expect(chooseReviewModel('gpt-5-high', catalog(true), false)).toBe('gpt-5-medium');
  });

  it("reads a stored empty string as 'Off' (null) and keeps valid choices", () => {
    expect(chooseReviewModel('', catalog(false), false)).toBeNull();
    expect(chooseReviewModel('gemini-2-5-pro', catalog(false), false)).toBe('gemini-2-5-pro');
  });
});

describe('preferences', () => {
  afterEach(() => localStorage.clear());

  it('live in preferredModel and preferredReviewModel, Off as an empty string', () => {
    storePreferredModel('gpt-5-fast');
    storePreferredReviewModel(null);
    expect(localStorage.getItem('preferredModel')).toBe('gpt-5-fast');
    expect(localStorage.getItem('preferredReviewModel')).toBe('');
    expect(readPreferredModel()).toBe('gpt-5-fast');
    expect(readPreferredReviewModel()).toBe('');
    storePreferredReviewModel('opus-4-1');
    expect(readPreferredReviewModel()).toBe('opus-4-1');
  });
});

describe('modelMenu', () => {
  const keys = (models: AvailableModel[]) => models.map((m) => m.key);

  it('puts recommended models first and admin-only ones in their own section for admins', () => {
    const menu = modelMenu(catalog(true), 'core', true);
    expect(keys(menu.recommended)).toEqual(['sonnet-4-5', 'gpt-5-fast']);
    expect(keys(menu.others)).toEqual(['opus-4-1', 'gpt-5-medium', 'gemini-2-5-pro']);
    expect(keys(menu.adminOnly)).toEqual(['sonnet-4', 'gpt-5-high', 'o3']);
  });

  it('recommends the reviewer for the review selector', () => {
    expect(keys(modelMenu(catalog(false), 'review', false).recommended)).toEqual(['gpt-5-medium']);
  });

  it('never shows the admin section to non-admins', () => {
    expect(modelMenu(catalog(true), 'core', false).adminOnly).toEqual([]);
  });
});

describe("a repository's default reviewer", () => {
  it("reads the repository's 'None' as no reviewer unless the user chose one", () => {
    const models = catalog(false, ['gpt-5-medium', 'opus-4-1']);
    expect(chooseReviewModel(null, models, false, { repository: 'none' })).toBeNull();
    expect(chooseReviewModel('opus-4-1', models, false, { repository: 'none' })).toBe('opus-4-1');
    expect(chooseReviewModel(null, models, false, { repository: 'opus-4-1' })).toBe('opus-4-1');
    expect(chooseReviewModel(null, models, false, { repository: null })).toBe('gpt-5-medium');
  });
});
