// The timeline webview's script: keeps the bars the extension sent, draws the rows in view
// (virtualised: a run can have thousands of calls), zooms, and reports clicks. No framework,
// no network: it is bundled into dist/client/timeline/timeline.js and loaded by nonce.
import { formatDuration } from "../../signals/model/format.js";
import { compareBars } from "../order.js";
import type { FromWebview, TimelineBar, TimelineRun, ToWebview } from "../protocol.js";

interface VsCodeApi {
  postMessage(message: FromWebview): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const ROW_HEIGHT = 24;
const LABEL_WIDTH = 300;
/** Rows drawn above and below the visible ones, so fast scrolling shows no gaps. */
const OVERSCAN = 10;
const ZOOM_STEP = 1.5;

const vscode = acquireVsCodeApi();
const element = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const runPicker = element<HTMLSelectElement>("run");
const summary = element("summary");
const empty = element("empty");
const scroller = element("scroller");
const axis = element("axis");
const rowsBox = element("rows");

const bars = new Map<string, TimelineBar>();
let ordered: TimelineBar[] = [];
let runs: TimelineRun[] = [];
let runId: number | null = null;
let durationMs = 0;
let omitted = 0;
/** Pixels per millisecond; null fits the whole run into the window (and keeps fitting as a live run grows). */
let scale: number | null = null;
let drawPending = false;

window.addEventListener("message", (event: MessageEvent<ToWebview>) => {
  const message = event.data;
  if (message.type === "reset") {
    bars.clear();
    for (const bar of message.layout.bars) bars.set(bar.id, bar);
    runs = message.runs;
    runId = message.runId;
    durationMs = message.layout.durationMs;
    omitted = message.omittedBars;
    scale = null;
  } else if (message.type === "update") {
    for (const id of message.remove) bars.delete(id);
    for (const bar of message.upsert) bars.set(bar.id, bar);
    runs = message.runs;
    durationMs = message.durationMs;
    omitted = message.omittedBars;
  } else {
    return;
  }
  const followBottom = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - ROW_HEIGHT;
  const sessionStart = new Map([...bars.values()].filter((bar) => bar.kind === "session").map((bar) => [bar.sessionId, bar.startMs]));
  ordered = [...bars.values()].sort(compareBars(sessionStart));
  renderHeader();
  draw();
  // A live run keeps its newest calls in view, unless the user scrolled up to read.
  if (followBottom && message.type === "update") scroller.scrollTop = scroller.scrollHeight;
});

runPicker.addEventListener("change", () => vscode.postMessage({ type: "selectRun", runId: Number(runPicker.value) }));
element("zoom-in").addEventListener("click", () => zoom(ZOOM_STEP));
element("zoom-out").addEventListener("click", () => zoom(1 / ZOOM_STEP));
element("zoom-fit").addEventListener("click", () => setScale(null));
scroller.addEventListener("scroll", scheduleDraw);
window.addEventListener("resize", scheduleDraw);
scroller.addEventListener(
  "wheel",
  (event) => {
    if (!event.ctrlKey && !event.metaKey) return;
    event.preventDefault();
    zoom(event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP);
  },
  { passive: false },
);
window.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLSelectElement) return;
  if (event.key === "+" || event.key === "=") zoom(ZOOM_STEP);
  else if (event.key === "-") zoom(1 / ZOOM_STEP);
  else if (event.key === "0") setScale(null);
});
rowsBox.addEventListener("click", (event) => openFrom(event.target));
rowsBox.addEventListener("keydown", (event) => {
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    openFrom(event.target);
  }
});

vscode.postMessage({ type: "ready" });

/** A click on a phase opens that phase's signal; anywhere else on a row, the signal that ended the call. */
function openFrom(target: EventTarget | null): void {
  if (!(target instanceof HTMLElement)) return;
  const holder = target.closest<HTMLElement>("[data-signal]");
  const row = target.closest<HTMLElement>("[data-session]");
  const signalId = holder?.dataset["signal"];
  const sessionId = row?.dataset["session"];
  if (signalId && sessionId) vscode.postMessage({ type: "openSignal", sessionId, signalId });
}

function zoom(factor: number): void {
  setScale(currentScale() * factor);
}

function setScale(next: number | null): void {
  scale = next === null ? null : Math.min(Math.max(next, 1e-6), 10_000);
  draw();
}

function currentScale(): number {
  if (scale !== null) return scale;
  const width = Math.max(100, scroller.clientWidth - LABEL_WIDTH - 24);
  return durationMs > 0 ? width / durationMs : 1;
}

function renderHeader(): void {
  runPicker.replaceChildren(
    ...runs.map((run) => {
      const option = document.createElement("option");
      option.value = String(run.runId);
      option.textContent = run.title;
      option.selected = run.runId === runId;
      return option;
    }),
  );
  const calls = ordered.filter((bar) => bar.kind === "tool" || bar.kind === "model");
  const errors = calls.filter((bar) => bar.status === "error").length;
  const denials = calls.filter((bar) => bar.status === "denied").length;
  const live = runs.find((run) => run.runId === runId)?.live ?? false;
  summary.textContent = [
    live ? "● live" : "",
    `${calls.length} calls`,
    errors ? `${errors} error${errors === 1 ? "" : "s"}` : "",
    denials ? `${denials} denied` : "",
    formatDuration(durationMs),
    omitted ? `${omitted} older bars not shown` : "",
  ]
    .filter(Boolean)
    .join(" · ");
  empty.hidden = ordered.length > 0;
  scroller.hidden = ordered.length === 0;
}

function scheduleDraw(): void {
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => {
    drawPending = false;
    draw();
  });
}

/** Draws the axis and the rows in view; the rows box is as tall as all rows, so the scrollbar is right. */
function draw(): void {
  const pxPerMs = currentScale();
  const trackWidth = Math.max(durationMs * pxPerMs, 50) + 24;
  rowsBox.style.height = `${ordered.length * ROW_HEIGHT}px`;
  rowsBox.style.width = `${LABEL_WIDTH + trackWidth}px`;
  drawAxis(pxPerMs, trackWidth);
  const first = Math.max(0, Math.floor(scroller.scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(ordered.length, Math.ceil((scroller.scrollTop + scroller.clientHeight) / ROW_HEIGHT) + OVERSCAN);
  const rows: HTMLElement[] = [];
  for (let index = first; index < last; index++) rows.push(rowOf(ordered[index]!, index, pxPerMs));
  rowsBox.replaceChildren(...rows);
}

function rowOf(bar: TimelineBar, index: number, pxPerMs: number): HTMLElement {
  const row = document.createElement("div");
  row.className = `row kind-${bar.kind} status-${bar.status}`;
  row.style.top = `${index * ROW_HEIGHT}px`;
  row.dataset["session"] = bar.sessionId;
  row.dataset["signal"] = bar.signalId;
  row.setAttribute("role", "listitem");
  row.tabIndex = 0;
  row.title = `${bar.label} — ${bar.detail}`;

  const label = document.createElement("div");
  label.className = "label";
  label.style.paddingLeft = `${6 + bar.depth * 14}px`;
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = bar.label;
  const detail = document.createElement("span");
  detail.className = "detail";
  detail.textContent = bar.detail;
  label.append(name, detail);

  const track = document.createElement("div");
  track.className = "track";
  const drawn = document.createElement("div");
  drawn.className = "bar";
  const left = bar.startMs * pxPerMs;
  drawn.style.left = `${left}px`;
  drawn.style.width = `${Math.max(3, (bar.endMs - bar.startMs) * pxPerMs)}px`;
  track.append(drawn);
  for (const phase of bar.phases) {
    const mark = document.createElement("div");
    const width = (phase.endMs - phase.startMs) * pxPerMs;
    mark.className = `phase status-${phase.status}${width < 3 ? " tick" : ""}`;
    mark.style.left = `${phase.startMs * pxPerMs}px`;
    if (width >= 3) mark.style.width = `${width}px`;
    mark.dataset["signal"] = phase.signalId;
    mark.title = `${phase.label} · ${formatDuration(phase.endMs)}`;
    track.append(mark);
  }
  row.append(label, track);
  return row;
}

function drawAxis(pxPerMs: number, trackWidth: number): void {
  axis.style.width = `${LABEL_WIDTH + trackWidth}px`;
  const step = niceStep(100 / pxPerMs);
  const ticks: HTMLElement[] = [];
  for (let ms = 0; ms * pxPerMs <= trackWidth && ticks.length < 1000; ms += step) {
    const tick = document.createElement("span");
    tick.className = "tick-label";
    tick.style.left = `${LABEL_WIDTH + ms * pxPerMs}px`;
    tick.textContent = formatDuration(ms);
    ticks.push(tick);
  }
  axis.replaceChildren(...ticks);
}

/** 1, 2 or 5 times a power of ten, at least `raw`. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-6)));
  return [1, 2, 5, 10].map((factor) => factor * power).find((step) => step >= raw) ?? 10 * power;
}
