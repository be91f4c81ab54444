import { migration001Initial } from './001-initial.js';
import { migration002LocalFilesAndUploads } from './002-local-files-and-uploads.js';
import { migration003Jobs } from './003-jobs.js';
import { migration004JobPromptSearch } from './004-job-prompt-search.js';
import { migration005Conversations } from './005-conversations.js';
import { migration006ServiceCalls } from './006-service-calls.js';
import { migration007JobLeases } from './007-job-leases.js';
import { migration008CredentialIdentity } from './008-credential-identity.js';
import { migration009UnfinishedWorkIndexes } from './009-unfinished-work-indexes.js';
import { migration010EventCursors } from './010-event-cursors.js';
import { migration011Projects } from './011-projects.js';
import { migration012Sequences } from './012-sequences.js';
import { migration013JobStageHistory } from './013-job-stage-history.js';
import { migration014JobVariations } from './014-job-variations.js';
import { migration015PlatformImageImports } from './015-platform-image-imports.js';
import { migration016JobIntentResends } from './016-job-intent-resends.js';
import { migration017StoryboardLinks } from './017-storyboard-links.js';
import { migration018ShotTrims } from './018-shot-trims.js';
import { migration019SequenceSoundtracks } from './019-sequence-soundtracks.js';
import { migration020SequenceDeliveries } from './020-sequence-deliveries.js';
import { migration021JobMarks } from './021-job-marks.js';
import { migration022JobNotes } from './022-job-notes.js';
import { migration023Collections } from './023-collections.js';
import { migration024CaptionEdits } from './024-caption-edits.js';
import { migration025RemovedShots } from './025-removed-shots.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/** Every migration this build knows, in order. Append only. */
export const migrations: readonly Migration[] = [
  migration001Initial,
  migration002LocalFilesAndUploads,
  migration003Jobs,
  migration004JobPromptSearch,
  migration005Conversations,
  migration006ServiceCalls,
  migration007JobLeases,
  migration008CredentialIdentity,
  migration009UnfinishedWorkIndexes,
  migration010EventCursors,
  migration011Projects,
  migration012Sequences,
  migration013JobStageHistory,
  migration014JobVariations,
  migration015PlatformImageImports,
  migration016JobIntentResends,
  migration017StoryboardLinks,
  migration018ShotTrims,
  migration019SequenceSoundtracks,
  migration020SequenceDeliveries,
  migration021JobMarks,
  migration022JobNotes,
  migration023Collections,
  migration024CaptionEdits,
  migration025RemovedShots,
];
