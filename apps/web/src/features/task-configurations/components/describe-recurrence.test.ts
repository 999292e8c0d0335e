import {
  defaultRecurrenceModel,
  parseRecurrence,
  type RecurrenceModel,
} from '@mise/shared/tasks/rules';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../shared/i18n/i18n';
import { describeRecurrence } from './describe-recurrence';

const model = (patch: Partial<RecurrenceModel>): RecurrenceModel => ({
  ...defaultRecurrenceModel,
  ...patch,
});

function describeIn(language: 'en' | 'fr', rule: RecurrenceModel): string {
  return describeRecurrence(rule, i18n.getFixedT(language));
}

describe('describeRecurrence', () => {
  it('reads each frequency in English', () => {
    expect(describeIn('en', model({ frequency: 3, interval: 1 }))).toBe('Every day');
    expect(describeIn('en', model({ frequency: 3, interval: 3 }))).toBe('Every 3 days');
    expect(describeIn('en', model({ frequency: 2, interval: 2, weekdays: [3, 0] }))).toBe(
      'Every 2 weeks on Monday and Thursday',
    );
    expect(describeIn('en', model({ frequency: 2, interval: 1, weekdays: [0, 2, 4] }))).toBe(
      'Every week on Monday, Wednesday and Friday',
    );
    expect(describeIn('en', model({ frequency: 1, monthMode: 'day', monthDay: 15 }))).toBe(
      'Every month on day 15',
    );
    expect(
      describeIn(
        'en',
        model({ frequency: 1, monthMode: 'position', position: -1, positionWeekday: 4 }),
      ),
    ).toBe('Every month on the last Friday');
    expect(describeIn('en', model({ frequency: 0, interval: 2, month: 3, monthDay: 15 }))).toBe(
      'Every 2 years on March 15',
    );
    expect(
      describeIn(
        'en',
        model({ frequency: 0, month: 11, monthMode: 'position', position: 2, positionWeekday: 1 }),
      ),
    ).toBe('Every year on the second Tuesday of November');
  });

  it('reads each frequency in French', () => {
    expect(describeIn('fr', model({ frequency: 3, interval: 1 }))).toBe('Tous les jours');
    expect(describeIn('fr', model({ frequency: 3, interval: 2 }))).toBe('Tous les 2 jours');
    expect(describeIn('fr', model({ frequency: 2, interval: 2, weekdays: [0, 3] }))).toBe(
      'Toutes les 2 semaines, le lundi et le jeudi',
    );
    expect(describeIn('fr', model({ frequency: 2, interval: 1, weekdays: [6] }))).toBe(
      'Toutes les semaines, le dimanche',
    );
    expect(describeIn('fr', model({ frequency: 1, interval: 3, monthDay: 10 }))).toBe(
      'Tous les 3 mois, le 10',
    );
    expect(
      describeIn(
        'fr',
        model({ frequency: 1, monthMode: 'position', position: -1, positionWeekday: 4 }),
      ),
    ).toBe('Tous les mois, le dernier vendredi');
    expect(describeIn('fr', model({ frequency: 0, month: 8, monthDay: 1 }))).toBe(
      'Tous les ans, le 1 août',
    );
    expect(
      describeIn(
        'fr',
        model({ frequency: 0, month: 4, monthMode: 'position', position: 1, positionWeekday: 0 }),
      ),
    ).toBe('Tous les ans en avril, le premier lundi');
  });

  it('reads a weekly rule without days as Monday, and the stored rule strings', () => {
    expect(describeIn('en', model({ frequency: 2, weekdays: [] }))).toBe('Every week on Monday');
    expect(describeIn('en', parseRecurrence('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH'))).toBe(
      'Every 2 weeks on Monday and Thursday',
    );
    expect(describeIn('en', parseRecurrence('FREQ=MONTHLY;INTERVAL=1;BYDAY=-1FR'))).toBe(
      'Every month on the last Friday',
    );
    expect(describeIn('fr', parseRecurrence(null))).toBe('Tous les jours');
  });
});
