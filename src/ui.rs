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
mod plot;
mod present;
mod quiz;
mod tables;
mod timeline;

pub use app::App;
pub use browser::install_panic_hook;
