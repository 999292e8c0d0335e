import type { traceabilityResultSchema } from '@mise/shared/tasks/schemas';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { goHome } from '../../app/navigation';
import type { DeviceElement } from '../../shared/api/types';
import type { EmployeeSession } from '../../shared/session/employee-session';
import { showToast } from '../../shared/ui/toast';
import type { ResultPicture } from '../tasks/forms/form-types';
import { PictureField } from '../tasks/forms/picture-field';
import { SubmitBar } from '../tasks/forms/submit-bar';
import { saveUnscheduledTask } from '../tasks/submit';
import { ElementPicker } from './element-picker';

type TraceabilityResult = z.infer<typeof traceabilityResultSchema>;
const maxPictures = 20;

/**
 * Traceability (spec 002 §3), an unscheduled task: the product (an element with the
 * traceability module), then one or more photos of its labels; sent as a new task.
 */
export function TraceabilityForm({
  elements,
  session,
}: {
  elements: DeviceElement[];
  session: EmployeeSession;
}) {
  const { t } = useTranslation();
  const [elementId, setElementId] = useState<string | null>(null);
  const [pictures, setPictures] = useState<ResultPicture[]>([]);
  const element = elements.find((item) => item.id === elementId);

  const missing = [
    ...(element ? [] : [t('unscheduled.needsElement')]),
    ...(pictures.length === 0 ? [t('unscheduled.traceability.needsPicture')] : []),
  ];

  const handleSubmit = async () => {
    if (!element) return;
    const result: TraceabilityResult = { entries: [{ element: element.id, pictures }] };
    await saveUnscheduledTask(
      {
        id: crypto.randomUUID(),
        module: 'traceability',
        element: element.id,
        label: `${t('modules.module.traceability')} – ${element.name}`,
        result,
      },
      session,
    );
    showToast(t('outbox.saved'));
    goHome();
  };

  return (
    <div className="task-form">
      <p className="muted">{t('unscheduled.traceability.intro')}</p>
      <ElementPicker
        elements={elements}
        selected={elementId}
        onSelect={setElementId}
        label={t('unscheduled.element')}
      />
      {element ? (
        <div className="card">
          <PictureField
            subject={element.name}
            pictures={pictures}
            onChange={setPictures}
            isRequired
            max={maxPictures}
          />
        </div>
      ) : null}
      <SubmitBar missing={missing} onSubmit={handleSubmit} />
    </div>
  );
}
