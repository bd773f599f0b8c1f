use effectively_once::ui::{install_panic_hook, App};

fn main() {
    install_panic_hook();
    leptos::mount::mount_to_body(App);
}
