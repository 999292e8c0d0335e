import {
  ActionIcon,
  Anchor,
  Button,
  FileButton,
  Group,
  Image,
  Progress,
  Stack,
  Text,
} from '@mantine/core';
import type { AuditAnswerInput, AuditQuestionOf } from '@mise/shared/audits/schemas';
import { auditLimits } from '@mise/shared/audits/schemas';
import { IconFile, IconTrash, IconUpload } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { ErrorText } from '../../../shared/ui/error-text';
import { uploadAnswerFile } from '../api/perform-audit';
import { acceptAttribute, fileNameOfUrl, fileRefusal, isImageFile } from '../model/answer-values';

type Upload = { key: number; name: string; percent: number };

type FileAnswerInputProps = {
  question: AuditQuestionOf<'file_upload'>;
  answer: AuditAnswerInput;
  label: ReactNode;
  labelId: string;
  resultId: string;
  update: (update: (previous: AuditAnswerInput) => AuditAnswerInput) => void;
};

let uploadSequence = 0;

/**
 * A file question: pick files of the allowed types, each uploaded with its progress, then kept
 * in the answer's file_urls; images show as thumbnails, other files by name; each can be
 * removed.
 */
export function FileAnswerInput({
  question,
  answer,
  label,
  labelId,
  resultId,
  update,
}: FileAnswerInputProps) {
  const { t } = useTranslation();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const urls = answer.file_urls ?? [];
  const extensions = question.options.file_extensions.join(', ');

  async function uploadOne(file: File, count: number) {
    const refusal = fileRefusal(question, file, count);
    if (refusal) {
      setError(
        t(`auditResults.perform.fileRefused.${refusal}`, {
          name: file.name,
          extensions,
          max: auditLimits.filesPerAnswer,
          size: Math.round(auditLimits.maxFileBytes / 1024 / 1024),
        }),
      );
      return;
    }
    uploadSequence += 1;
    const key = uploadSequence;
    setUploads((current) => [...current, { key, name: file.name, percent: 0 }]);
    try {
      const stored = await uploadAnswerFile(resultId, question.id, file, (percent) =>
        setUploads((current) =>
          current.map((upload) => (upload.key === key ? { ...upload, percent } : upload)),
        ),
      );
      setNames((current) => new Map(current).set(stored.url, stored.name));
      update((previous) => ({
        ...previous,
        file_urls: [...(previous.file_urls ?? []), stored.url],
      }));
    } catch (caught) {
      setError(`${file.name}: ${errorMessage(t, caught)}`);
    } finally {
      setUploads((current) => current.filter((upload) => upload.key !== key));
    }
  }

  function handleFiles(files: File[]) {
    setError(null);
    let count = urls.length + uploads.length;
    for (const file of files) {
      void uploadOne(file, count);
      count += 1;
    }
  }

  function handleRemove(url: string) {
    update((previous) => {
      const rest = (previous.file_urls ?? []).filter((item) => item !== url);
      return { ...previous, file_urls: rest.length > 0 ? rest : null };
    });
  }

  return (
    <Stack gap="xs" role="group" aria-labelledby={labelId}>
      {label}
      <Text size="xs" c="dimmed">
        {t('auditResults.perform.allowedFiles', { extensions })}
      </Text>
      {urls.length > 0 ? (
        <Group gap="sm" data-testid="answer-files">
          {urls.map((url) => {
            const name = names.get(url) ?? fileNameOfUrl(url);
            return (
              <Group key={url} gap={4} wrap="nowrap" data-testid="answer-file">
                <Anchor href={url} target="_blank" rel="noopener" size="sm">
                  {isImageFile(url) || isImageFile(name) ? (
                    <Image src={url} alt={name} w={72} h={72} radius="sm" fit="cover" />
                  ) : (
                    <Group gap={4} wrap="nowrap" maw={220}>
                      <IconFile size={18} />
                      <Text size="sm" truncate>
                        {name}
                      </Text>
                    </Group>
                  )}
                </Anchor>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('auditResults.perform.removeFile', { name })}
                  onClick={() => handleRemove(url)}
                >
                  <IconTrash size={18} />
                </ActionIcon>
              </Group>
            );
          })}
        </Group>
      ) : null}
      {uploads.map((upload) => (
        <Stack key={upload.key} gap={2} data-testid="answer-upload">
          <Text size="xs" truncate>
            {t('auditResults.perform.uploading', { name: upload.name, percent: upload.percent })}
          </Text>
          <Progress value={upload.percent} size="sm" aria-label={upload.name} />
        </Stack>
      ))}
      <Group>
        <FileButton onChange={handleFiles} accept={acceptAttribute(question)} multiple>
          {(props) => (
            <Button
              {...props}
              variant="light"
              size="md"
              leftSection={<IconUpload size={18} />}
              data-testid="answer-file-button"
            >
              {t('auditResults.perform.addFiles')}
            </Button>
          )}
        </FileButton>
      </Group>
      <ErrorText testId="answer-file-error">{error}</ErrorText>
    </Stack>
  );
}
