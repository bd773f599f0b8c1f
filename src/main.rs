use effectively_once::ui::{install_panic_hook, start};

effectively_once::allocator!();

fn main() {
    install_panic_hook();
    start();
}
