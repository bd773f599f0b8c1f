use effectively_once::ui::{install_panic_hook, start};

fn main() {
    install_panic_hook();
    start();
}
