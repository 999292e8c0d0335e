import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderWithProviders } from '../../../test/render-app';
import { buildAlert } from '../test/build-alert';
import { expectNoAxeViolations } from '../test/expect-no-axe-violations';
import { AcknowledgeAlertDialog, togglePreset } from './acknowledge-alert-dialog';

const alert = buildAlert();
const acknowledgePath = `/api/alerts/${alert.id}/acknowledge`;

function renderDialog(handler: MockHandler) {
  const api = mockApi({ [`POST ${acknowledgePath}`]: handler });
  const onClose = vi.fn();
  const view = renderWithProviders(
    <AcknowledgeAlertDialog alert={alert} timeZone="Europe/Paris" onClose={onClose} />,
  );
  return { ...view, api, onClose };
}

function actionField(): HTMLTextAreaElement {
  return screen.getByTestId('alert-corrective-action') as HTMLTextAreaElement;
}

describe('acknowledge dialog', () => {
  it('refuses an empty corrective action and sends nothing', async () => {
    const { user, api, onClose } = renderDialog({ body: { alert } });
    expect(screen.getByRole('dialog').textContent).toContain('Since 22/11/2026 08:45');
    await expectNoAxeViolations(screen.getByRole('dialog'));

    await user.click(screen.getByTestId('alert-acknowledge-submit'));
    expect(await screen.findByText('Describe the corrective action taken.')).toBeTruthy();
    await expectNoAxeViolations(screen.getByRole('dialog'));
    // Blanks are not an action either.
    await user.type(actionField(), '   ');
    await user.click(screen.getByTestId('alert-acknowledge-submit'));
    expect(await screen.findByText('Describe the corrective action taken.')).toBeTruthy();
    expect(api.callsTo('POST', acknowledgePath)).toHaveLength(0);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('prefills the text from the presets, keeps it editable and sends it', async () => {
    const acknowledged = {
      ...alert,
      acknowledgedAt: '2026-11-22T09:00:00.000Z',
      acknowledgedByName: 'Camille Martin',
      correctiveAction: 'Product moved. Door closed. Seal to replace',
    };
    const { user, api, onClose } = renderDialog({ body: { alert: acknowledged } });

    await user.click(screen.getByText('Product moved'));
    await user.click(screen.getByText('Repair called'));
    await user.click(screen.getByText('Door closed'));
    expect(actionField().value).toBe('Product moved. Repair called. Door closed');
    // A second click takes the preset out again.
    await user.click(screen.getByText('Repair called'));
    expect(actionField().value).toBe('Product moved. Door closed');
    expect((screen.getByTestId('alert-preset-productMoved') as HTMLInputElement).checked).toBe(
      true,
    );
    expect((screen.getByTestId('alert-preset-repairCalled') as HTMLInputElement).checked).toBe(
      false,
    );

    await user.type(actionField(), '. Seal to replace');
    await user.click(screen.getByTestId('alert-acknowledge-submit'));

    await waitFor(() => expect(api.callsTo('POST', acknowledgePath)).toHaveLength(1));
    expect(api.callsTo('POST', acknowledgePath)[0]?.body).toEqual({
      correctiveAction: 'Product moved. Door closed. Seal to replace',
    });
    expect((await screen.findByTestId('notice-success')).textContent).toContain(
      'Alert acknowledged.',
    );
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("shows the server's refusal in words and stays open", async () => {
    const { user, onClose } = renderDialog(apiError(409, 'alert/already-acknowledged'));
    await user.type(actionField(), 'Produit jeté');
    await user.click(screen.getByTestId('alert-acknowledge-submit'));
    expect((await screen.findByTestId('alert-acknowledge-error')).textContent).toBe(
      'This alert has already been acknowledged.',
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('adds and removes whole sentences only', () => {
    expect(togglePreset('', 'Door closed')).toBe('Door closed');
    expect(togglePreset('Door closed.', 'Door closed')).toBe('');
    expect(togglePreset('Door closed later', 'Door closed')).toBe('Door closed later. Door closed');
  });
});
