//! How much a match in each field of an item weighs, by the profile's task weights.

use crate::profile::TaskWeights;
use crate::store::TaskField;

impl TaskField {
    pub(crate) fn weight(self, w: &TaskWeights) -> f64 {
        match self {
            TaskField::Title => w.title,
            TaskField::Description => w.description,
            TaskField::Labels => w.labels,
            TaskField::Notes => w.notes,
        }
    }
}
