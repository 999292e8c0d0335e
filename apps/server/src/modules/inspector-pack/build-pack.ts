import { writeCsv } from '@mise/shared/csv/write-csv';
import type { HistoryTask } from '@mise/shared/history/schemas';
import { punchCardsCsv } from '@mise/shared/people/rules';
import { inspectorPackFormat, type PackManifest } from '@mise/shared/records/pack';
import { dayInZone } from '@mise/shared/tasks/rules';
import type { AppDeps } from '../../platform/deps';
import { type ExportLanguage, exportTexts, fillTemplate } from '../../platform/pdf/export-texts';
import {
  type ExportTable,
  formatDay,
  type TasksExportInput,
  taskExportTexts,
  zonedClock,
} from '../../platform/pdf/tasks';
import { storeCountry, submittedResultsOfStore } from '../audits/audit-results.service';
import { createAuditPdfs, languageOfCountry } from '../audits/audits-exports.routes';
import { historyExport, revisionsOf } from '../history/history.service';
import { loadResultThumbnails } from '../history/history-pictures';
import { periodInstants, probeRecordsOfStore } from '../history/history-probes';
import { probeExportTables } from '../history/history-probes-export';
import { listStoreProbes, probeTemperatures } from '../probes/probes.service';
import { getPunchCards } from '../punch-cards/punch-cards.service';
import { chainHeadAt } from '../records/chain';
import {
  generatedByOf,
  type PackRow,
  packKey,
  packScope,
  setPackProgress,
} from './inspector-pack.service';
import { openPackDocuments } from './pack-documents';
import { createPackZip } from './pack-zip';
import { renderProbeChartSvg } from './probe-chart-svg';

/*
 * The build of an inspector pack (issue 21), for a claimed pack row. The ZIP holds:
 *   history/<module>.pdf and .csv        every module the store shows, every task of the period
 *                                        (filter "all") with its results and corrections
 *   probes/probe-records.pdf             the alert episodes and the probe days (history's tables)
 *   probes/alert-episodes.csv, probe-days.csv
 *   probes/chart-<probe>.svg             each probe's readings over the period
 *   punch-cards/punch-cards.pdf and .csv
 *   audits/<day>-<audit>-<id>.pdf        each audit result submitted in the period
 *   audits/audit-results.csv             their list, score and file
 *   manifest.pdf, manifest.json          every file above with its size and sha256, the record
 *                                        chain's head at the end of the period, who and when
 * Everything is read through the history, punch-card, probe and audit services with a scope of
 * exactly the pack's store; documents are in the store's language (its country's). The
 * progress is written after each part; a failure leaves no ZIP.
 */

/** A name safe in a ZIP path, from anything (a probe's or an audit's name). */
export const fileSlug = (value: string) =>
  value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .toLowerCase() || 'file';

/** A table of the history's PDF (its header and cells' text) as CSV: the same words. */
function tableCsv(table: ExportTable): string {
  const rows: string[][] = [
    table.columns.map((column) => column.header),
    ...table.rows.map((row) => row.map((cell) => cell.text)),
  ];
  return writeCsv(rows, { separator: ';', hasByteOrderMark: true });
}

/** Lets the event loop serve requests between two heavy parts of a build. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export type BuildOutcome = { key: string; size: number; manifest: PackManifest };

export async function buildPack(deps: AppDeps, pack: PackRow): Promise<BuildOutcome> {
  const { db, storage } = deps;
  const generatedAt = deps.now();
  const scope = packScope(pack.store_id, pack.created_by);
  const start = pack.period_start;
  const end = pack.period_end;

  // The history's store rule: still active and licensed (else 404 and the pack fails).
  const content = await historyExport(
    db,
    scope,
    { storeId: pack.store_id, start, end, filter: 'all' },
    generatedAt,
  );
  const store = content.store;
  const lang: ExportLanguage = languageOfCountry(await storeCountry(db, store.id));
  const texts = taskExportTexts[lang];
  const words = exportTexts(lang).inspectorPack;
  const clock = zonedClock(store.timezone_name);
  const period = periodInstants(start, end, store.timezone_name);

  const key = packKey(store.id, pack.id);
  const zip = createPackZip(storage, key, generatedAt);
  const documents = openPackDocuments();
  try {
    const parts = content.sections.length + 4;
    let done = 0;
    const partDone = async () => {
      done += 1;
      await setPackProgress(db, pack.id, (done / (parts + 1)) * 100);
      await yieldToEventLoop();
    };

    /* History: a PDF and a CSV per module. */
    const probes = await probeRecordsOfStore(db, scope, store, start, end);
    const probeTables = probeExportTables(probes, lang, clock, texts.locale);
    const common: Omit<TasksExportInput, 'sections'> = {
      store: { name: store.name, timezone_name: store.timezone_name },
      start,
      end,
      filter: 'all',
      generatedAt,
      lang,
    };
    for (const [index, section] of content.sections.entries()) {
      const tasks: HistoryTask[] = section.items;
      const [revisions, thumbnails] = await Promise.all([
        revisionsOf(
          db,
          store.id,
          tasks.filter((task) => task.revision > 1).map((task) => task.id),
        ),
        loadResultThumbnails(storage, store.id, tasks),
      ]);
      const name = `history/${index + 1}-${section.module.replace(/_/g, '-')}`;
      await zip.add(
        `${name}.pdf`,
        await documents.render({
          kind: 'tasks-pdf',
          input: { ...common, sections: [section], revisions, thumbnails },
        }),
      );
      await zip.add(
        `${name}.csv`,
        await documents.render({ kind: 'tasks-csv', input: { ...common, sections: [section] } }),
      );
      await partDone();
    }

    /* Probes: their records (history's tables), the episodes and days as CSV, a chart each. */
    await zip.add(
      'probes/probe-records.pdf',
      await documents.render({
        kind: 'tasks-pdf',
        input: { ...common, sections: [], tables: probeTables },
      }),
    );
    const [alertTable, daysTable] = probeTables;
    const empty = emptyProbeTables(lang);
    await zip.add('probes/alert-episodes.csv', tableCsv(alertTable ?? empty.alerts));
    await zip.add('probes/probe-days.csv', tableCsv(daysTable ?? empty.days));
    const boundBy = new Map(probes.elements.map((element) => [element.probe_uid, element]));
    const storeProbes = await listStoreProbes(db, scope, store.id);
    const usedNames = new Set<string>();
    for (const probe of storeProbes) {
      const readings = await probeTemperatures(db, scope, probe.probe_uid, {
        start: period.from.toISOString(),
        end: new Date(period.to.getTime() - 1).toISOString(),
      });
      const element = boundBy.get(probe.probe_uid);
      const minimum = element ? element.minimum_temperature : probe.minimum_temperature;
      const maximum = element ? element.maximum_temperature : probe.maximum_temperature;
      let name = `probes/chart-${fileSlug(probe.name)}`;
      if (usedNames.has(name)) name = `${name}-${fileSlug(probe.probe_uid)}`;
      usedNames.add(name);
      await zip.add(
        `${name}.svg`,
        renderProbeChartSvg({
          title: element ? `${element.name} (${probe.name})` : probe.name,
          subtitle: fillTemplate(words.chartSubtitle, {
            uid: probe.probe_uid,
            start: formatDay(start),
            end: formatDay(end),
            count: readings.readings.reduce((sum, point) => sum + point.count, 0),
          }),
          from: period.from,
          to: period.to,
          points: readings.readings,
          minimum,
          maximum,
          clock,
          emptyText: words.noReading,
          legend: { mean: words.chartMean, range: words.chartRange, limits: words.chartLimits },
        }),
      );
    }
    await partDone();

    /* Punch cards: the sheet and the spec's CSV. */
    const cards = await getPunchCards(db, scope, store.id, { start, end });
    await zip.add(
      'punch-cards/punch-cards.pdf',
      await documents.render({ kind: 'punch-cards-pdf', input: { cards, lang, generatedAt } }),
    );
    await zip.add(
      'punch-cards/punch-cards.csv',
      punchCardsCsv({
        storeName: cards.store.name,
        zone: cards.store.timezone_name,
        employees: cards.employees.map((employee) => ({
          name: employee.name,
          surname: employee.surname,
          entries: cards.entries.filter((entry) => entry.employee_id === employee.id),
        })),
      }),
    );
    await partDone();

    /* Audit results submitted in the period: their stored PDFs (rendered when missing). */
    const results = await submittedResultsOfStore(db, store.id, period.from, period.to);
    const auditPdfs = createAuditPdfs(deps);
    const auditRows: string[][] = [
      [
        words.auditColumns.audit,
        words.auditColumns.end,
        words.auditColumns.auditor,
        words.auditColumns.score,
        words.auditColumns.maxScore,
        words.auditColumns.file,
      ],
    ];
    for (const result of results) {
      const ended = result.end_date ? clock.date(result.end_date) : null;
      const day = result.end_date ? dayInZone(result.end_date, period.zone) : 'undated';
      const name = `audits/${day}-${fileSlug(result.audit_name)}-${result.id.slice(0, 8)}.pdf`;
      const pdfKey = await auditPdfs.ensure(result.id, result.pdf_key, lang);
      const stored = await storage.get(pdfKey);
      if (!stored) throw new Error(`audit result PDF missing: ${result.id}`);
      await zip.add(name, stored.stream);
      auditRows.push([
        result.audit_name,
        ended ? `${ended.date} ${ended.time}` : '',
        result.auditor_name,
        result.score === null ? '' : String(result.score),
        result.max_score === null ? '' : String(result.max_score),
        name,
      ]);
    }
    await zip.add(
      'audits/audit-results.csv',
      writeCsv(auditRows, { separator: ';', hasByteOrderMark: true }),
    );
    await partDone();

    /* The manifest: the readable page first (it is listed), then the JSON (listing it). */
    // The head as it stood at the period's last instant (or now, for a period not over).
    const chainAt = new Date(Math.min(period.to.getTime() - 1, generatedAt.getTime()));
    const head = await chainHeadAt(db, store.id, chainAt);
    const generatedBy = await generatedByOf(db, pack);
    const manifestOf = (): PackManifest => ({
      format: inspectorPackFormat,
      pack_id: pack.id,
      store: {
        id: store.id,
        name: store.name,
        address: store.address,
        city: store.city,
        timezone_name: store.timezone_name,
      },
      period: { start, end },
      chain_head: { seq: head.seq, head_hash: head.head_hash, at: chainAt.toISOString() },
      generated_by: generatedBy,
      generated_at: generatedAt.toISOString(),
      language: lang,
      files: [...zip.files],
    });
    await zip.add(
      'manifest.pdf',
      await documents.render({ kind: 'manifest-pdf', input: manifestOf() }),
    );
    const manifest = manifestOf();
    await zip.add('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
    await partDone();

    const { size } = await zip.finish();
    return { key, size, manifest };
  } catch (error) {
    await zip.abort(error instanceof Error ? error : new Error(String(error)));
    throw error;
  } finally {
    await documents.close();
  }
}

/** The probe tables' headers, for a store with no episode or no bound probe. */
function emptyProbeTables(lang: ExportLanguage): { alerts: ExportTable; days: ExportTable } {
  const words = exportTexts(lang).probes;
  const table = (headers: string[]): ExportTable => ({
    heading: '',
    count: '',
    columns: headers.map((header) => ({ header, weight: 1 })),
    rows: [],
    emptyText: words.noAlert,
  });
  const columns = words.columns;
  return {
    alerts: table([
      columns.element,
      columns.alert,
      columns.period,
      columns.limits,
      columns.worst,
      columns.escalation,
      columns.acknowledged,
      columns.correctiveAction,
    ]),
    days: table([
      columns.element,
      columns.day,
      columns.limits,
      columns.lowest,
      columns.highest,
      columns.last,
      columns.readings,
    ]),
  };
}
