//! The paths a search reads, by id ([`PathSource`]): an indexed [`PathList`] (id = its
//! index) or a listing scanned in place for one query ([`super::listing`]). Everything past
//! the first scan (bounds, alignment, ranking, positions) reads paths through this trait,
//! so both kinds of fixture answer alike.

use crate::tree::paths::{PathList, PathView, ASCII};

/// Paths by id, as the search past its first scan reads them.
pub(super) trait PathSource: Sync {
    /// The path as given.
    fn given(&self, id: usize) -> &str;
    /// The bytes of [`PathSource::given`].
    fn path_bytes(&self, id: usize) -> &[u8];
    /// What a scan reads: the text of an ASCII path, the folding of any other
    /// ([`PathList::scan_bytes`]).
    fn scan_bytes(&self, id: usize) -> &[u8];
    /// Whether the path folds by lowering its ASCII letters.
    fn is_ascii(&self, id: usize) -> bool;
    /// [`PathList::shape`].
    fn shape(&self, id: usize) -> &[u8];
    /// [`PathList::view`].
    fn view<'a>(&'a self, id: usize, buf: &'a mut Vec<u8>) -> PathView<'a>;
    /// [`PathList::origin`].
    fn origin(&self, id: usize, at: usize) -> usize;
}

impl PathSource for PathList {
    #[inline]
    fn given(&self, id: usize) -> &str {
        PathList::path(self, id)
    }
    #[inline]
    fn path_bytes(&self, id: usize) -> &[u8] {
        PathList::path_bytes(self, id)
    }
    #[inline]
    fn scan_bytes(&self, id: usize) -> &[u8] {
        PathList::scan_bytes(self, id)
    }
    #[inline]
    fn is_ascii(&self, id: usize) -> bool {
        self.span(id).folded == ASCII
    }
    #[inline]
    fn shape(&self, id: usize) -> &[u8] {
        PathList::shape(self, id)
    }
    #[inline]
    fn view<'a>(&'a self, id: usize, buf: &'a mut Vec<u8>) -> PathView<'a> {
        PathList::view(self, id, buf)
    }
    #[inline]
    fn origin(&self, id: usize, at: usize) -> usize {
        PathList::origin(self, id, at)
    }
}
