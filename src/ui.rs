//! Leptos components. They render plain view data from the engine and know no scenario.
mod app;
mod audience;
mod browser;
mod calls;
mod cmd;
mod compare;
mod controls;
mod dom;
mod explore;
mod export;
mod figure;
mod home;
pub mod i18n;
mod icons;
mod ondemand;
mod panels;
mod parts;
mod plot;
mod present;
mod quiz;
mod tables;
mod timeline;

pub use app::{App, Opening};

/// Starts the page: fetches the module of the scenario the link shows (the split build; at once
/// elsewhere), reads the link against that scenario (which replays its run), then mounts the
/// app. The home page shows no run: it fetches its own part, mounts, and draws each card's
/// picture as its scenario's module arrives.
pub fn start() {
    let search = browser::location_search();
    let home = crate::player::is_home(&search);
    let shown = crate::player::shown_scenario(&search);
    // Not Leptos's spawner: mounting is what sets that one up.
    wasm_bindgen_futures::spawn_local(async move {
        let loaded = if home {
            parts::load(parts::PartId::Home).await
        } else {
            crate::scenarios::load(shown).await.map(|_| ())
        };
        if loaded.is_err() {
            return browser::show_load_failure();
        }
        let opening = Opening::of_link();
        // The link's replay and the first drawing in two tasks, not one long one (BENCHMARKS.md,
        // "The first load in tasks").
        leptos::prelude::set_timeout(
            move || {
                leptos::mount::mount_to_body(move || leptos::prelude::view! { <App opening/> });
                app::settle_after_first_frame();
            },
            std::time::Duration::ZERO,
        );
    });
}
pub use browser::install_panic_hook;
