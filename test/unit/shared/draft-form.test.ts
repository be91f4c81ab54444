import { describe, expect, it } from 'vitest';
import { emptyDraftForm, toVideoDraft } from '../../../src/shared/bridge/draft-form.js';
import { DraftForm, type DraftMedia } from '../../../src/shared/bridge/domains/studio.js';

const photo: DraftMedia = {
  id: 'stg_aaaaaaaaaaaaaaaaaaaaaaaa',
  fileName: 'photo.png',
  mimeType: 'image/png',
  byteSize: 10,
  kind: 'image',
};

describe('the Create form', () => {
  it('starts empty under the given profile, and the bridge accepts it', () => {
    const form = emptyDraftForm('personal-1');
    expect(DraftForm.parse(form)).toEqual(form);
    expect(form).toMatchObject({ profileId: 'personal-1', prompt: '', references: [], seed: null });
  });

  it('maps onto a draft: an unset seed is left to the platform, its own files kept', () => {
    const form: DraftForm = {
      ...emptyDraftForm('simulator'),
      prompt: 'a fox',
      seed: undefined,
      firstFrame: photo,
    };
    const draft = toVideoDraft(form);
    expect(draft).toMatchObject({ prompt: 'a fox', seed: null, firstFrame: photo, references: [] });
    expect(draft).not.toHaveProperty('lastFrame');
  });

  it('takes the files the core resolved in place of the form’s description of them', () => {
    const form: DraftForm = { ...emptyDraftForm('simulator'), firstFrame: photo, references: [photo] };
    const resolved = { ...photo, path: '/staging/photo.png', sha256: 'abc' };
    const draft = toVideoDraft(form, { firstFrame: resolved, references: [resolved] });
    expect(draft.firstFrame).toBe(resolved);
    expect(draft.references).toEqual([resolved]);
  });
});
