// The stores' zone is not the browser's: a time read on the wrong calendar fails a test.
process.env.TZ = 'America/New_York';

import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { forgetDeviceTokenCache } from '../shared/device/device-token';
import { i18n, initI18n } from '../shared/i18n/i18n';
import { resetOutboxStateForTests } from '../shared/outbox/outbox';
import { resetLocalDbForTests } from '../shared/storage/local-db';

configure({ asyncUtilTimeout: 5000 });

beforeEach(async () => {
  await initI18n('en');
  if (i18n.language !== 'en') await i18n.changeLanguage('en');
});

afterEach(async () => {
  cleanup();
  resetOutboxStateForTests();
  forgetDeviceTokenCache();
  await resetLocalDbForTests();
});
