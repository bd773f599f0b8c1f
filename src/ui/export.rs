//! The Export dialog: the timeline as SVG and PNG (drawn from the trace, not captured from the
//! screen), the state's tables as Markdown, the run as a Mermaid sequence diagram and as a JSON
//! file, and opening such a file. The texts are built by the pure `crate::export`; this file
//! only adds the standalone SVG and the browser's downloads and file reading.

use super::app::{use_ctx, Ctx};
use super::browser;
use super::cmd::{Cmd, Format};
use super::dom::{drawn, markup, Node};
use super::i18n;
use super::timeline;
use crate::export::{run_scenario, Kit, Run};
use crate::scenarios::LoadFailed;
use crate::sim::{Lang, Text, Trace};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The lane names' column in the standalone SVG.
const NAMES_W: i32 = 150;

/// Light-theme colours for the timeline's classes, so the file looks the same anywhere.
const SVG_STYLE: &str = "text{font-family:system-ui,sans-serif}.band{fill:#f7f9fb}.band.alt{fill:#eef2f6}\
.lane-line{stroke:#d5dbe3;stroke-width:2}.lane-line.volatile{stroke-dasharray:6 5}.hatch-bg{fill:#eef2f6}\
.hatch-line{stroke:#c8ced6;stroke-width:4}.col .hit{fill:transparent}.col.current .hit{fill:#e6f0f7}\
.tick{font:600 11px monospace;fill:#526070;text-anchor:middle}.msg line{stroke:#0072b2;stroke-width:2.2}\
.msg .dot,.head{fill:#0072b2}.msg.dup line{stroke:#b0568f;stroke-dasharray:5 3}.msg.dup .dot{fill:#b0568f}\
.msg.lost line{stroke:#ad4500;stroke-dasharray:2 4}.msg.lost .dot{fill:#ad4500}\
.msg-label{font:600 11px monospace;fill:#1b2430;paint-order:stroke;stroke:#fff;stroke-width:3px}\
.mark circle{fill:#fff;stroke:#526070;stroke-width:2}.mark .glyph{font-size:13px;text-anchor:middle;fill:#1b2430}\
.mark.commit circle{stroke:#007a5a}.mark.commit .glyph,.mark.respond .glyph{fill:#007a5a}\
.mark.publish circle,.mark.deliver circle{stroke:#0072b2}.mark.crash circle,.mark.rollback circle,.mark.fail circle{stroke:#ad4500;fill:#f7e6dc}\
.mark.crash .glyph,.mark.rollback .glyph,.mark.fail .glyph{fill:#ad4500}.mark.duplicate circle{stroke:#b0568f}\
.mark.dedup circle{stroke:#2b88bd}.mark.restart circle{stroke:#007a5a;stroke-dasharray:3 2}\
.lane-label{font-size:13px;font-weight:600;fill:#1b2430}.title{font-size:15px;font-weight:700;fill:#1b2430}";

/// The timeline up to `step` as a standalone SVG document: title, lane names, every step's
/// messages and marks.
pub fn timeline_svg(ctx: &Ctx, step: usize, lang: Lang) -> String {
    ctx.trace.with_untracked(|t| {
        let lay = timeline::Layout::new(t, 0, timeline::Zoom::Wide, step);
        let (base, moving) = (
            timeline::base(t, step, lang, &lay),
            timeline::moving(t, step, 1.0, lang, &lay),
        );
        let (w, h) = (lay.width, lay.height);
        let head = 28;
        let meta = ctx.meta();
        let variant = meta
            .variants
            .get(ctx.variant.get_untracked())
            .map_or("", |v| v.name.get(lang));
        let mut svg = Node::svg("svg")
            .attr("xmlns", "http://www.w3.org/2000/svg")
            .attr("width", w + NAMES_W)
            .attr("height", h + head)
            .attr("viewBox", format!("0 0 {} {}", w + NAMES_W, h + head))
            .child(Node::svg("style").text(SVG_STYLE))
            .child(
                Node::svg("rect")
                    .attr("width", "100%")
                    .attr("height", "100%")
                    .attr("fill", "#fff"),
            )
            .child(
                Node::svg("text")
                    .attr("class", "title")
                    .attr("x", 8)
                    .attr("y", 19)
                    .text(format!("{} — {variant}", meta.title.get(lang))),
            );
        for (i, lane) in t.view(0).lanes.iter().enumerate() {
            svg.push(
                Node::svg("text")
                    .attr("class", "lane-label")
                    .attr("x", 8)
                    .attr("y", head + lay.y(i) + 4)
                    .text(lane.name.get(lang)),
            );
        }
        let place = |n: Node| {
            Node::svg("g")
                .attr("transform", format!("translate({NAMES_W} {head})"))
                .child(n)
        };
        svg.push(place(base));
        svg.push(place(moving));
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}\n",
            markup(&[svg])
        )
    })
}

/// The file names: scenario, variant, step.
fn file_name(ctx: &Ctx, ext: &str) -> String {
    let meta = ctx.meta();
    let v = meta
        .variants
        .get(ctx.variant.get_untracked())
        .map_or("run", |v| v.slug);
    let step = ctx.cursor.get_untracked().step;
    format!("{}-{v}-step{step}.{ext}", meta.slug)
}

/// The current run as the pure exporter sees it.
fn current_run(ctx: &Ctx) -> Run {
    Run {
        scenario: ctx.scenario.get_untracked(),
        variant: ctx.variant.get_untracked(),
        knobs: ctx.knobs.get_untracked(),
        path: ctx.path.get_untracked(),
        step: ctx.cursor.get_untracked().step,
    }
}

/// The export formats and the run file's reader: here at once in a build without `split`; in
/// the page's, fetched on first use (a failure is not remembered: the next click tries again).
#[cfg(feature = "split")]
#[wasm_split_helpers::wasm_split(part_export, fallible)]
pub fn load_kit() -> Result<&'static Kit, LoadFailed> {
    Ok(&crate::export::KIT)
}

#[cfg(not(feature = "split"))]
async fn load_kit() -> Result<&'static Kit, LoadFailed> {
    Ok(&crate::export::KIT)
}

/// Runs `then` with the kit once it is here; if it cannot be fetched, says so (a notice) and
/// changes nothing.
fn with_kit(ctx: Ctx, then: impl FnOnce(&'static Kit) + 'static) {
    leptos::task::spawn_local(async move {
        match load_kit().await {
            Ok(kit) => then(kit),
            Err(_) => {
                ctx.status
                    .set(Some(i18n::export_words(ctx.lang.get()).unloaded));
                let why = Text::new(
                    i18n::export_words(Lang::En).unloaded,
                    i18n::export_words(Lang::Zh).unloaded,
                );
                ctx.notices.update(|n| n.push(why));
            }
        }
    });
}

/// A text format, written with the kit from the trace at a step in a language.
type Writer = fn(&Kit, &Ctx, &Trace, usize, Lang) -> String;

fn export(ctx: Ctx, format: Format) {
    let done = |ctx: Ctx, done: bool| {
        let w = super::i18n::export_words(ctx.lang.get());
        ctx.status
            .set(Some(if done { w.exported } else { w.failed }));
    };
    // What the file shows, read when it is written.
    let now = move || {
        let (lang, step) = (ctx.lang.get_untracked(), ctx.cursor.get_untracked().step);
        (lang, step, file_name(&ctx, format.ext()))
    };
    let (mime, text): (_, Writer) = match format {
        Format::Svg | Format::Png => {
            let (lang, step, file) = now();
            let svg = timeline_svg(&ctx, step, lang);
            return done(
                ctx,
                match format {
                    Format::Svg => browser::download(&file, "image/svg+xml", &svg),
                    _ => browser::download_png(&file, &svg),
                },
            );
        }
        Format::Markdown => ("text/markdown", |k, ctx, tr, step, lang| {
            (k.markdown)(tr, step, ctx.meta().title.get(lang), lang)
        }),
        Format::Mermaid => ("text/plain", |k, _, tr, step, lang| {
            (k.mermaid)(tr, step, lang)
        }),
        Format::Json => ("application/json", |k, ctx, tr, _, _| {
            (k.run_json)(&current_run(ctx), tr)
        }),
    };
    // A text format waits for the kit (fetched on the first export), then reads the state.
    with_kit(ctx, move |kit| {
        let (lang, step, file) = now();
        let body = ctx
            .trace
            .with_untracked(|tr| text(kit, &ctx, tr, step, lang));
        done(ctx, browser::download(&file, mime, &body));
    });
}

/// Opens a run file's text: the run on success; otherwise the reason, shown in the dialog and
/// as a notice, and nothing changes.
pub fn import_text(ctx: Ctx, error: RwSignal<Option<Text>>, text: &str) {
    // The file's scenario first (the split build fetches its module), then the whole file.
    let Some(scenario) = run_scenario(text) else {
        return open_text(ctx, error, text);
    };
    let text = text.to_string();
    ctx.when_loaded(scenario, move || open_text(ctx, error, &text));
}

fn open_text(ctx: Ctx, error: RwSignal<Option<Text>>, text: &str) {
    let text = text.to_string();
    with_kit(ctx, move |kit| open_with(ctx, error, kit, &text));
}

fn open_with(ctx: Ctx, error: RwSignal<Option<Text>>, kit: &Kit, text: &str) {
    match (kit.parse_run)(text) {
        Ok(run) => {
            error.set(None);
            ctx.apply(run);
            ctx.status
                .set(Some(i18n::export_words(ctx.lang.get()).imported));
            browser::close_dialog("export-dialog");
        }
        Err(why) => refuse(ctx, error, why),
    }
}

fn refuse(ctx: Ctx, error: RwSignal<Option<Text>>, why: Text) {
    ctx.notices.update(|n| n.push(why.clone()));
    error.set(Some(why));
}

#[component]
pub fn ExportDialog() -> impl IntoView {
    let ctx = use_ctx();
    let error = RwSignal::new(None::<Text>);
    let on_click = move |ev: leptos::ev::MouseEvent| match Cmd::of(&ev) {
        Some(Cmd::Export(format)) => export(ctx, format),
        Some(Cmd::ExportClose) => browser::close_dialog("export-dialog"),
        _ => {}
    };
    let on_change = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        if file.size() > crate::export::MAX_BYTES as f64 {
            let kib = crate::export::MAX_BYTES / 1024;
            refuse(
                ctx,
                error,
                Text::new(
                    format!("The file was not opened: it is larger than {kib} KiB."),
                    format!("文件未打开：它超过了 {kib} KiB。"),
                ),
            );
            return;
        }
        let done = Closure::once(move |v: JsValue| {
            import_text(ctx, error, &v.as_string().unwrap_or_default());
        });
        let _ = file.text().then(&done);
        done.forget();
    };
    let draw = move || {
        let (t, lang) = (ctx.t(), ctx.lang.get());
        let w = super::i18n::export_words(lang);
        let item = |what: Format, label: &'static str| {
            Node::el("li").child(
                Node::el("button")
                    .attr("type", "button")
                    .attr("class", "btn")
                    .cmd(Cmd::Export(what))
                    .text(label),
            )
        };
        let mut body = vec![
            Node::el("h2").attr("id", "export-h").text(w.title),
            Node::el("p").attr("class", "muted").text(w.hint),
            Node::el("ul")
                .attr("class", "export-list")
                .child(item(Format::Svg, w.svg))
                .child(item(Format::Png, w.png))
                .child(item(Format::Markdown, w.md))
                .child(item(Format::Mermaid, w.mermaid))
                .child(item(Format::Json, w.json)),
            Node::el("h3").text(w.import_title),
            Node::el("label")
                .attr("class", "import")
                .child(Node::el("span").text(w.import_label))
                .child(
                    Node::el("input")
                        .attr("type", "file")
                        .attr("accept", ".json,application/json")
                        .attr("data-import", ""),
                ),
        ];
        if let Some(e) = error.get() {
            body.push(
                Node::el("p")
                    .attr("class", "import-error")
                    .attr("role", "alert")
                    .text(e.get(lang)),
            );
        }
        body.push(
            Node::el("div").attr("class", "buttons").child(
                Node::el("button")
                    .attr("type", "button")
                    .attr("class", "btn")
                    .cmd(Cmd::ExportClose)
                    .text(t.close),
            ),
        );
        body
    };
    view! {
        <dialog id="export-dialog" class="card embed-dialog" aria-labelledby="export-h"
            on:click=on_click on:change=on_change>
            {drawn("export-body", draw)}
        </dialog>
    }
}
