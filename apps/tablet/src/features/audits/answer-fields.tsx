import { yesNoAnswer } from '@mise/shared/audits/rules';
import {
  type AuditAnswerInput,
  type AuditQuestion,
  type AuditQuestionOf,
  auditLimits,
} from '@mise/shared/audits/schemas';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isProtectedFile, useImageSource } from '../../shared/api/protected-file';
import { CameraCapture } from '../../shared/camera/camera-capture';
import { errorText } from '../../shared/i18n/i18n';
import { pictureBlob, readPicture } from '../../shared/outbox/outbox';
import { keypadValueOf, NumericKeypad, parseKeypadValue } from '../../shared/ui/numeric-keypad';
import { isLocalFile, keepFile } from './audit-draft';
import type { ChangeMode } from './use-audit-draft';

/** What every answer field receives: its question, the answer so far, and the change. */
type FieldProps<Question extends AuditQuestion> = {
  question: Question;
  answer: AuditAnswerInput;
  /** The question text's element id (the field's accessible name). */
  labelId: string;
  isReadOnly: boolean;
  onChange: (answer: AuditAnswerInput, mode: ChangeMode, files?: Record<string, string>) => void;
};

/** The answer without its type's value (what a cleared answer keeps: the comment). */
function cleared(answer: AuditAnswerInput): AuditAnswerInput {
  return answer.comment
    ? { question_id: answer.question_id, comment: answer.comment }
    : {
        question_id: answer.question_id,
      };
}

function TextField({
  question,
  answer,
  labelId,
  isReadOnly,
  onChange,
}: FieldProps<AuditQuestionOf<'text_input'>>) {
  const { t } = useTranslation();
  const max = question.options.max_characters;
  const text = answer.text ?? '';
  return (
    <div className="field">
      <textarea
        className="textarea"
        aria-labelledby={labelId}
        value={text}
        maxLength={max ?? auditLimits.textAnswerMax}
        readOnly={isReadOnly}
        onChange={(event) => {
          const value = event.target.value;
          onChange(value === '' ? cleared(answer) : { ...answer, text: value }, 'after-pause');
        }}
      />
      {max !== null ? (
        <span className="muted audit-hint">
          {t('audits.characters', { count: [...text].length, max })}
        </span>
      ) : null}
    </div>
  );
}

function ChoiceField({
  question,
  answer,
  labelId,
  isReadOnly,
  onChange,
}: FieldProps<AuditQuestionOf<'multiple_choice'>>) {
  const { t } = useTranslation();
  const isMultiple = question.options.multiple_selection;
  const chosen = answer.choices ?? [];
  const handleChoose = (choiceId: string) => {
    const next = chosen.includes(choiceId)
      ? chosen.filter((id) => id !== choiceId)
      : isMultiple
        ? [...chosen, choiceId]
        : [choiceId];
    onChange(next.length === 0 ? cleared(answer) : { ...cleared(answer), choices: next }, 'now');
  };
  return (
    <div className="stack audit-field">
      {isMultiple ? <span className="muted audit-hint">{t('audits.severalAnswers')}</span> : null}
      <fieldset className="audit-choices" aria-labelledby={labelId}>
        {question.options.choices
          .filter((choice) => !choice.archived_at)
          .map((choice) => (
            <button
              key={choice.id}
              type="button"
              className="choice audit-choice"
              aria-pressed={chosen.includes(choice.id)}
              disabled={isReadOnly}
              onClick={() => handleChoose(choice.id)}
            >
              {choice.text}
            </button>
          ))}
      </fieldset>
    </div>
  );
}

function YesNoField({
  question,
  answer,
  labelId,
  isReadOnly,
  onChange,
}: FieldProps<AuditQuestionOf<'yes_or_no'>>) {
  const { t } = useTranslation();
  const value = yesNoAnswer(question, answer);
  const live = question.options.choices.filter((choice) => !choice.archived_at);
  const handleChoose = (isYes: boolean) => {
    if (value === isYes) {
      onChange(cleared(answer), 'now');
      return;
    }
    const choice = live.find((item) => item.text === (isYes ? 'true' : 'false'));
    onChange(
      { ...cleared(answer), answer_yes: isYes, ...(choice ? { choices: [choice.id] } : {}) },
      'now',
    );
  };
  return (
    <fieldset className="audit-yes-no" aria-labelledby={labelId}>
      <button
        type="button"
        className="choice audit-yes-no__button audit-yes-no__button--yes"
        aria-pressed={value === true}
        disabled={isReadOnly}
        onClick={() => handleChoose(true)}
      >
        {t('audits.yes')}
      </button>
      <button
        type="button"
        className="choice audit-yes-no__button audit-yes-no__button--no"
        aria-pressed={value === false}
        disabled={isReadOnly}
        onClick={() => handleChoose(false)}
      >
        {t('audits.no')}
      </button>
    </fieldset>
  );
}

/** Decimals a step needs (0.5 → 1, 0.01 → 2). */
function decimalsOf(step: number): number {
  const text = String(step);
  return text.includes('.') ? (text.split('.')[1]?.length ?? 0) : 0;
}

/** The largest number of values a rating shows as buttons; more is a slider. */
const ratingButtonsMax = 11;

function RatingField({
  question,
  answer,
  labelId,
  isReadOnly,
  onChange,
}: FieldProps<AuditQuestionOf<'rating'>>) {
  const { t } = useTranslation();
  const { min_rating: min, max_rating: max, precision } = question.options;
  const decimals = decimalsOf(precision);
  const count = Math.round((max - min) / precision) + 1;
  const valueAt = (index: number) => Number((min + index * precision).toFixed(decimals));
  const rating = typeof answer.rating === 'number' ? answer.rating : null;
  const choose = (value: number | null) =>
    onChange(value === null ? cleared(answer) : { ...cleared(answer), rating: value }, 'now');
  const hint = t('audits.ratingRange', { min, max, step: precision });
  if (count <= ratingButtonsMax)
    return (
      <div className="stack audit-field">
        <span className="muted audit-hint">{hint}</span>
        <fieldset className="audit-choices audit-rating" aria-labelledby={labelId}>
          {Array.from({ length: count }, (_, index) => valueAt(index)).map((value) => (
            <button
              key={value}
              type="button"
              className="choice audit-rating__value"
              aria-pressed={rating === value}
              disabled={isReadOnly}
              onClick={() => choose(rating === value ? null : value)}
            >
              {value}
            </button>
          ))}
        </fieldset>
      </div>
    );
  const step = (direction: 1 | -1) => {
    const base = rating ?? (direction === 1 ? min - precision : max + precision);
    choose(Math.min(max, Math.max(min, Number((base + direction * precision).toFixed(decimals)))));
  };
  return (
    <div className="stack audit-field">
      <span className="muted audit-hint">{hint}</span>
      <div className="row audit-stepper">
        <button
          type="button"
          className="button button--large"
          aria-label={t('audits.decrease', { question: question.text })}
          disabled={isReadOnly || rating === min}
          onClick={() => step(-1)}
        >
          −
        </button>
        <output className="audit-stepper__value" aria-live="polite">
          {rating ?? '–'}
        </output>
        <button
          type="button"
          className="button button--large"
          aria-label={t('audits.increase', { question: question.text })}
          disabled={isReadOnly || rating === max}
          onClick={() => step(1)}
        >
          +
        </button>
      </div>
      <input
        type="range"
        className="audit-slider"
        aria-labelledby={labelId}
        min={min}
        max={max}
        step={precision}
        value={rating ?? min}
        disabled={isReadOnly}
        onChange={(event) => choose(Number(event.target.value))}
      />
    </div>
  );
}

function NumberField({
  question,
  answer,
  labelId,
  isReadOnly,
  onChange,
}: FieldProps<AuditQuestionOf<'number'>>) {
  const { t } = useTranslation();
  const hintId = useId();
  const { min_number: min, max_number: max } = question.options;
  const [text, setText] = useState(() => keypadValueOf(answer.number));
  const [isOpen, setIsOpen] = useState(false);
  // Another copy of the answer (the server's, another employee's) shows when not typing.
  useEffect(() => {
    if (!isOpen) setText(keypadValueOf(answer.number));
  }, [answer.number, isOpen]);
  const value = parseKeypadValue(text);
  const isOutside = value !== null && (value < min || value > max);
  const handleChange = (next: string) => {
    setText(next);
    const parsed = parseKeypadValue(next);
    onChange(
      parsed === null ? cleared(answer) : { ...cleared(answer), number: parsed },
      'after-pause',
    );
  };
  return (
    <div className="stack audit-field">
      <span id={hintId} className="muted audit-hint">
        {t('audits.numberRange', { min, max })}
      </span>
      {isOpen && !isReadOnly ? (
        <div className="audit-keypad">
          <NumericKeypad
            label={t('audits.numberOf', { question: question.text })}
            value={text}
            onChange={handleChange}
            isInvalid={isOutside}
            allowNegative={min < 0}
            maxLength={12}
            describedBy={hintId}
            onDone={() => setIsOpen(false)}
            autoFocus
          />
        </div>
      ) : (
        <button
          type="button"
          className={`audit-number${isOutside ? ' audit-number--invalid' : ''}`}
          aria-label={t('audits.enterNumber', { question: question.text })}
          aria-describedby={`${labelId} ${hintId}`}
          disabled={isReadOnly}
          onClick={() => setIsOpen(true)}
        >
          {text === '' ? '–' : text}
        </button>
      )}
    </div>
  );
}

function DateField({
  question,
  answer,
  labelId,
  isReadOnly,
  onChange,
  today,
}: FieldProps<AuditQuestionOf<'date'>> & { today: string }) {
  const { t } = useTranslation();
  const limit = question.options.date_limit;
  return (
    <div className="stack audit-field">
      {limit !== 'no_limit' ? (
        <span className="muted audit-hint">
          {t(limit === 'only_future' ? 'audits.onlyFuture' : 'audits.onlyPast')}
        </span>
      ) : null}
      <input
        type="date"
        className="input audit-date"
        aria-labelledby={labelId}
        value={answer.date ?? ''}
        min={limit === 'only_future' ? today : undefined}
        max={limit === 'only_past' ? today : undefined}
        readOnly={isReadOnly}
        onChange={(event) => {
          const value = event.target.value;
          onChange(value ? { ...cleared(answer), date: value } : cleared(answer), 'now');
        }}
      />
    </div>
  );
}

const imageExtensions = new Set(['jpg', 'jpeg', 'png', 'gif', 'svg']);
const extensionOf = (name: string) => {
  const extension = name.split('.').pop()?.toLowerCase() ?? '';
  return extension === 'jpeg' ? 'jpg' : extension;
};

/** A kept file's preview (an image) from the tablet's IndexedDB, else null. */
function useLocalPreview(reference: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!isLocalFile(reference)) return;
    let objectUrl: string | null = null;
    let isCancelled = false;
    void readPicture(reference).then((picture) => {
      if (!picture || isCancelled || !picture.type.startsWith('image/')) return;
      if (typeof URL.createObjectURL !== 'function') return;
      objectUrl = URL.createObjectURL(pictureBlob(picture));
      setUrl(objectUrl);
    });
    return () => {
      isCancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [reference]);
  return url;
}

function FileItem({
  url,
  name,
  index,
  isReadOnly,
  onRemove,
}: {
  url: string;
  name: string;
  index: number;
  isReadOnly: boolean;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const local = useLocalPreview(url);
  const isImage = imageExtensions.has(extensionOf(name));
  const remote = useImageSource(!isLocalFile(url) && isImage && isProtectedFile(url) ? url : null);
  const preview = local ?? remote;
  const label = t('audits.fileOf', { index: index + 1, name });
  return (
    <li className="audit-file">
      {preview ? (
        <img className="audit-file__preview" src={preview} alt={label} />
      ) : (
        <span
          className="audit-file__preview audit-file__preview--icon"
          role="img"
          aria-label={label}
        >
          {isImage ? '📷' : '📄'}
        </span>
      )}
      <span className="audit-file__name">{name}</span>
      {isReadOnly ? null : (
        <button
          type="button"
          className="button button--ghost"
          aria-label={t('audits.removeFile', { index: index + 1, name })}
          onClick={onRemove}
        >
          ✕
        </button>
      )}
    </li>
  );
}

function FileField({
  question,
  answer,
  labelId,
  isReadOnly,
  onChange,
  files,
}: FieldProps<AuditQuestionOf<'file_upload'>> & { files: Record<string, string> }) {
  const { t } = useTranslation();
  const [isCameraOpen, setIsCameraOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const extensions = question.options.file_extensions;
  const urls = answer.file_urls ?? [];
  // The camera takes JPEG pictures: offered when the question takes jpg files.
  const canTakePhoto = extensions.includes('jpg');
  const accept = extensions.flatMap((extension) =>
    extension === 'jpg' ? ['.jpg', '.jpeg'] : [`.${extension}`],
  );
  const isFull = urls.length >= auditLimits.filesPerAnswer;

  const add = async (file: Blob, name: string) => {
    setProblem(null);
    if (!(extensions as readonly string[]).includes(extensionOf(name))) {
      setProblem(errorText('audit/answer-file'));
      return;
    }
    if (file.size > auditLimits.maxFileBytes) {
      setProblem(errorText('file/too-large'));
      return;
    }
    const reference = await keepFile(file, name);
    onChange({ ...cleared(answer), file_urls: [...urls, reference] }, 'now', {
      [reference]: name,
    });
  };
  const handleRemove = (url: string) => {
    const next = urls.filter((item) => item !== url);
    onChange(next.length === 0 ? cleared(answer) : { ...cleared(answer), file_urls: next }, 'now');
  };

  return (
    <div className="stack audit-field">
      <span className="muted audit-hint">
        {t('audits.allowedFiles', { extensions: extensions.join(', ') })}
        <br />
        {t('audits.filesOffline')}
      </span>
      {urls.length > 0 ? (
        <ul className="audit-files" aria-labelledby={labelId}>
          {urls.map((url, index) => (
            <FileItem
              key={url}
              url={url}
              name={files[url] ?? decodeURIComponent(url.split('/').pop() ?? url)}
              index={index}
              isReadOnly={isReadOnly}
              onRemove={() => handleRemove(url)}
            />
          ))}
        </ul>
      ) : null}
      {isReadOnly || isFull ? null : (
        <div className="row">
          {canTakePhoto ? (
            <button
              type="button"
              className="button button--large"
              aria-label={t('audits.takePhotoFor', { question: question.text })}
              onClick={() => setIsCameraOpen(true)}
            >
              📷 {t('audits.takePhoto')}
            </button>
          ) : null}
          <label className="button button--large audit-file-input">
            📄 {t('audits.chooseFile')}
            <input
              type="file"
              accept={accept.join(',')}
              className="visually-hidden"
              aria-label={t('audits.chooseFileFor', { question: question.text })}
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (file) void add(file, file.name);
              }}
            />
          </label>
        </div>
      )}
      {problem ? (
        <p className="error-text" role="alert">
          {problem}
        </p>
      ) : null}
      {isCameraOpen ? (
        <CameraCapture
          facing="environment"
          title={question.text}
          onCapture={(blob) => {
            setIsCameraOpen(false);
            void add(blob, `photo-${Date.now()}.jpg`);
          }}
          onCancel={() => setIsCameraOpen(false)}
        />
      ) : null}
    </div>
  );
}

/** The answer's comment: a button until one is written. */
function CommentField({
  question,
  answer,
  isReadOnly,
  onChange,
}: Omit<FieldProps<AuditQuestion>, 'labelId'>) {
  const { t } = useTranslation();
  const comment = answer.comment ?? '';
  const [isOpen, setIsOpen] = useState(comment !== '');
  if (!isOpen && comment === '')
    return isReadOnly ? null : (
      <button
        type="button"
        className="button button--ghost audit-comment-button"
        aria-label={t('audits.addCommentFor', { question: question.text })}
        onClick={() => setIsOpen(true)}
      >
        💬 {t('audits.addComment')}
      </button>
    );
  return (
    <label className="field">
      <span className="field__label">{t('audits.comment')}</span>
      <textarea
        className="textarea audit-comment"
        aria-label={t('audits.commentOf', { question: question.text })}
        value={comment}
        maxLength={auditLimits.commentMax}
        readOnly={isReadOnly}
        onChange={(event) => {
          const { comment: _previous, ...rest } = answer;
          const value = event.target.value;
          onChange(value === '' ? rest : { ...rest, comment: value }, 'after-pause');
        }}
      />
    </label>
  );
}

type AnswerFieldProps = FieldProps<AuditQuestion> & {
  files: Record<string, string>;
  today: string;
};

/** The input of a question's type, then its comment. */
export function AnswerField(props: AnswerFieldProps) {
  const { question } = props;
  let input: ReactNode;
  switch (question.type) {
    case 'text_input':
      input = <TextField {...props} question={question} />;
      break;
    case 'multiple_choice':
      input = <ChoiceField {...props} question={question} />;
      break;
    case 'yes_or_no':
      input = <YesNoField {...props} question={question} />;
      break;
    case 'file_upload':
      input = <FileField {...props} question={question} />;
      break;
    case 'rating':
      input = <RatingField {...props} question={question} />;
      break;
    case 'number':
      input = <NumberField {...props} question={question} />;
      break;
    case 'date':
      input = <DateField {...props} question={question} />;
      break;
  }
  return (
    <>
      {input}
      <CommentField {...props} />
    </>
  );
}
