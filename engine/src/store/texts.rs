//! Packed string columns: every string of one field of every item end to end in one
//! buffer, with one offset per item, instead of a heap string per item and field.

use super::codec::{Reader, Writer};

/// Strings packed end to end: string `i` is `text[ends[i - 1]..ends[i]]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Texts {
    text: String,
    ends: Vec<u32>,
}

impl Texts {
    pub(crate) fn with_capacity(count: usize) -> Texts {
        Texts {
            text: String::new(),
            ends: Vec::with_capacity(count),
        }
    }

    /// Appends a string; `false` when the column would pass 4 GiB (offsets are `u32`).
    #[must_use]
    pub(crate) fn push(&mut self, s: &str) -> bool {
        self.text.push_str(s);
        match u32::try_from(self.text.len()) {
            Ok(end) => {
                self.ends.push(end);
                true
            }
            Err(_) => false,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(crate) fn range(&self, i: usize) -> (usize, usize) {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        (start, self.ends[i] as usize)
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> &str {
        let (s, e) = self.range(i);
        &self.text[s..e]
    }

    pub(crate) fn encode(&self, w: &mut Writer) {
        w.bytes(self.text.as_bytes());
        w.u32s(&self.ends);
    }

    /// Reads a column back, checking that the offsets rise, stay inside the text and fall on
    /// character boundaries, so no later slice can panic.
    pub(crate) fn decode<R: std::io::Read>(r: &mut Reader<R>) -> Option<Texts> {
        let text = r.string()?;
        let ends = r.u32s()?;
        let mut last = 0;
        for &end in &ends {
            let end = end as usize;
            if end < last || end > text.len() || !text.is_char_boundary(end) {
                return None;
            }
            last = end;
        }
        Some(Texts { text, ends })
    }
}

/// Optional strings: a [`Texts`] (absent ones empty) and which are present.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct OptTexts {
    texts: Texts,
    present: Vec<bool>,
}

impl OptTexts {
    #[must_use]
    pub(crate) fn push(&mut self, s: Option<&str>) -> bool {
        self.present.push(s.is_some());
        self.texts.push(s.unwrap_or(""))
    }

    pub(crate) fn len(&self) -> usize {
        self.present.len()
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<&str> {
        self.present[i].then(|| self.texts.get(i))
    }

    /// The byte range of string `i` when present, without reading it.
    #[inline]
    pub(crate) fn range(&self, i: usize) -> Option<(usize, usize)> {
        self.present[i].then(|| self.texts.range(i))
    }

    pub(crate) fn encode(&self, w: &mut Writer) {
        self.texts.encode(w);
        w.bools(&self.present);
    }

    pub(crate) fn decode<R: std::io::Read>(r: &mut Reader<R>) -> Option<OptTexts> {
        let texts = Texts::decode(r)?;
        let present = r.bools()?;
        (present.len() == texts.len()).then_some(OptTexts { texts, present })
    }
}

/// A list of strings per item (labels, notes, comments): item `i` owns the values
/// `ends[i - 1]..ends[i]` of `values`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Lists {
    values: Texts,
    ends: Vec<u32>,
}

impl Lists {
    #[must_use]
    pub(crate) fn push(&mut self, list: &[String]) -> bool {
        let fits = list.iter().all(|v| self.values.push(v));
        match u32::try_from(self.values.len()) {
            Ok(end) if fits => {
                self.ends.push(end);
                true
            }
            _ => false,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(crate) fn count(&self, i: usize) -> usize {
        let (s, e) = self.bounds(i);
        e - s
    }

    fn bounds(&self, i: usize) -> (usize, usize) {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        (start, self.ends[i] as usize)
    }

    pub(crate) fn get(&self, i: usize) -> impl ExactSizeIterator<Item = &str> + '_ {
        let (s, e) = self.bounds(i);
        (s..e).map(|v| self.values.get(v))
    }

    pub(crate) fn to_vec(&self, i: usize) -> Vec<String> {
        self.get(i).map(str::to_string).collect()
    }

    pub(crate) fn encode(&self, w: &mut Writer) {
        self.values.encode(w);
        w.u32s(&self.ends);
    }

    pub(crate) fn decode<R: std::io::Read>(r: &mut Reader<R>) -> Option<Lists> {
        let values = Texts::decode(r)?;
        let ends = r.u32s()?;
        let mut last = 0;
        for &end in &ends {
            if end < last || end as usize > values.len() {
                return None;
            }
            last = end;
        }
        Some(Lists { values, ends })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_round_trip() {
        let mut t = Texts::default();
        assert!(t.push("a") && t.push("") && t.push("ßé"));
        let mut o = OptTexts::default();
        assert!(o.push(Some("x")) && o.push(None) && o.push(Some("")));
        let mut l = Lists::default();
        assert!(l.push(&["p".into(), "q".into()]) && l.push(&[]) && l.push(&["r".into()]));
        let mut w = Writer::default();
        t.encode(&mut w);
        o.encode(&mut w);
        l.encode(&mut w);
        let mut r = Reader::new(&w.buf);
        let (t2, o2, l2) = (
            Texts::decode(&mut r).unwrap(),
            OptTexts::decode(&mut r).unwrap(),
            Lists::decode(&mut r).unwrap(),
        );
        assert_eq!((t2.get(2), o2.get(1), o2.get(2)), ("ßé", None, Some("")));
        assert_eq!(l2.to_vec(0), ["p", "q"]);
        assert_eq!(l2.count(1), 0);
        assert_eq!((t, o, l), (t2, o2, l2));
    }

    #[test]
    fn offsets_inside_a_character_are_refused() {
        let mut w = Writer::default();
        w.bytes("ß".as_bytes());
        w.u32s(&[1]);
        assert_eq!(Texts::decode(&mut Reader::new(&w.buf)), None);
        let mut w = Writer::default();
        w.bytes(b"ab");
        w.u32s(&[2, 1]);
        assert_eq!(Texts::decode(&mut Reader::new(&w.buf)), None);
    }
}
