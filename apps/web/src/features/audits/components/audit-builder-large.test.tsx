import { expandedSectionsOnOpen } from '@mise/shared/audits/rules';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildLargeAudit } from '../test/build-audit';

describe('audit builder with a large audit', { timeout: 60_000 }, () => {
  it('opens a 50 × 20 audit with the first 3 sections expanded and the others collapsed', async () => {
    const audit = buildLargeAudit(50, 20);
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      [`GET /api/audits/${audit.id}`]: { body: { audit } },
    });
    renderApp(`/auditingConfiguration?id=${audit.id}`);
    const sections = await screen.findAllByTestId('section-item', {}, { timeout: 15_000 });
    expect(sections).toHaveLength(50);

    const expanded = sections.filter((section) => section.dataset.expanded === 'true');
    expect(
      expanded.map((section) => within(section).getByTestId('section-title').textContent),
    ).toEqual(['Section 1', 'Section 2', 'Section 3']);
    for (const section of expanded) {
      expect(within(section).getAllByTestId('question-row')).toHaveLength(20);
    }
    // Collapsed sections draw their header only: 60 question rows for 1000 questions.
    expect(screen.getAllByTestId('question-row')).toHaveLength(expandedSectionsOnOpen * 20);
    for (const section of sections.slice(expandedSectionsOnOpen)) {
      expect(section.dataset.expanded).toBe('false');
      expect(within(section).queryByTestId('section-body')).toBeNull();
      expect(within(section).getByTestId('section-toggle').getAttribute('aria-expanded')).toBe(
        'false',
      );
    }
    // One editor, for the first question of the first section; rows show 35 characters.
    expect(screen.getAllByTestId('question-editor')).toHaveLength(1);
    expect((screen.getByTestId('question-text') as HTMLTextAreaElement).value).toBe(
      audit.sections[0]!.questions[0]!.text,
    );
    expect(screen.getAllByTestId('question-row-text')[0]!.textContent).toBe(
      'Question 1.1 — la température est-e…',
    );
  });
});
