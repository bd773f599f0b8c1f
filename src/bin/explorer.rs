//! The explorer's Web Worker (see `effectively_once::worker`).

effectively_once::allocator!();

fn main() {
    effectively_once::worker::serve();
}
