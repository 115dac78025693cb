//! cel-go builds a node's path by appending to its operand's path, a Go slice: when that
//! slice has spare capacity, the new path shares its array, and a second append on the same
//! operand (a two-variable comprehension's key then value, two fields of one iteration
//! variable) overwrites what the first wrote. The API server looks sizes up by these
//! paths, so they are modelled as Go slices, capacity growth included, to look up what it
//! looks up.

use std::cell::RefCell;
use std::rc::Rc;

/// A Go `[]string`: a window (length, capacity) on a shared array; `nil` without one.
#[derive(Debug, Clone, Default)]
pub(super) struct Path {
    array: Option<Rc<RefCell<Vec<String>>>>,
    len: usize,
    cap: usize,
}

impl Path {
    /// Go's nil slice.
    pub(super) fn nil() -> Path {
        Path::default()
    }

    /// `[]string{name}`.
    pub(super) fn root(name: &str) -> Path {
        Path {
            array: Some(Rc::new(RefCell::new(vec![name.to_string()]))),
            len: 1,
            cap: 1,
        }
    }

    /// A new array holding exactly `elements`.
    pub(super) fn fresh(elements: Vec<String>) -> Path {
        let len = elements.len();
        Path {
            array: Some(Rc::new(RefCell::new(elements))),
            len,
            cap: len,
        }
    }

    /// Go's `append(p, name)`.
    pub(super) fn append(&self, name: &str) -> Path {
        if let Some(array) = &self.array
            && self.len < self.cap
        {
            let mut a = array.borrow_mut();
            match a.get_mut(self.len) {
                Some(slot) => *slot = name.to_string(),
                None => a.push(name.to_string()),
            }
            return Path {
                array: Some(array.clone()),
                len: self.len + 1,
                cap: self.cap,
            };
        }
        let mut elements = self.elements();
        let cap = grown(self.cap, self.len + 1);
        elements.push(name.to_string());
        Path {
            array: Some(Rc::new(RefCell::new(elements))),
            len: self.len + 1,
            cap,
        }
    }

    /// The elements the window shows now.
    pub(super) fn elements(&self) -> Vec<String> {
        match &self.array {
            Some(a) => a.borrow().iter().take(self.len).cloned().collect(),
            None => Vec::new(),
        }
    }

    pub(super) fn first(&self) -> Option<String> {
        let a = self.array.as_ref()?;
        if self.len == 0 {
            return None;
        }
        a.borrow().first().cloned()
    }

    pub(super) fn is_nil(&self) -> bool {
        self.array.is_none()
    }
}

/// The capacity Go's append gives a `[]string` of capacity `cap` that must hold `needed`:
/// doubled (or by a quarter past 256), then rounded up to the allocator's size class.
fn grown(cap: usize, needed: usize) -> usize {
    let mut new = cap;
    let double = cap.saturating_mul(2);
    if needed > double {
        new = needed;
    } else if cap < 256 {
        new = double;
    } else {
        while new < needed {
            new = new.saturating_add((new + 768) / 4);
        }
    }
    const STRING_SIZE: usize = 16;
    let bytes = new.saturating_mul(STRING_SIZE);
    round_up_size(bytes) / STRING_SIZE
}

/// Go's malloc size classes up to 32 KiB; larger objects take whole 8 KiB pages.
fn round_up_size(bytes: usize) -> usize {
    const CLASSES: [usize; 67] = [
        8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320,
        352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792,
        2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472,
        9728, 10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264,
        28672, 32768,
    ];
    match CLASSES.iter().find(|&&c| c >= bytes) {
        Some(&c) => c,
        None => bytes.div_ceil(8192).saturating_mul(8192),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_share_spare_capacity_as_go_slices_do() {
        let p = Path::root("self").append("spec").append("config");
        let keys = p.append("@keys");
        let values = p.append("@values");
        assert_eq!(keys.elements(), ["self", "spec", "config", "@values"]);
        assert_eq!(values.elements(), ["self", "spec", "config", "@values"]);
        let q = Path::root("m");
        let (k, v) = (q.append("@keys"), q.append("@values"));
        assert_eq!(k.elements(), ["m", "@keys"]);
        assert_eq!(v.elements(), ["m", "@values"]);
    }
}
