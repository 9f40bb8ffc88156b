package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which caller of a round trip gets which sequence: {@link SequenceBatch}, without Redis. */
class SequenceBatchTest {

    private static final SequenceBatch.IdWriter WRITER =
            (ms, bizCode, bucket, sequence) -> bizCode + "/" + ms + "/" + bucket + "/" + sequence;

    @Test
    void callersGetTheSequencesOfThePiecesInOrder() {
        SequenceBatch batch = new SequenceBatch();
        // Bucket 3 had two sequences left in its millisecond (98, 99), bucket 4 gave the other three (0 to 2).
        batch.add(3, 1000, 99, 2);
        batch.add(4, 1001, 2, 3);

        assertThat(batch.size()).isEqualTo(5);
        assertThat(ids(batch, "A"))
                .containsExactly("A/1000/3/98", "A/1000/3/99", "A/1001/4/0", "A/1001/4/1", "A/1001/4/2");
    }

    @Test
    void holdsMorePiecesThanItFirstHadRoomFor() {
        SequenceBatch batch = new SequenceBatch();
        for (int bucket = 0; bucket < 5; bucket++) {
            batch.add(bucket, 2000 + bucket, 7, 1);
        }

        assertThat(batch.size()).isEqualTo(5);
        assertThat(ids(batch, "B"))
                .containsExactly("B/2000/0/7", "B/2001/1/7", "B/2002/2/7", "B/2003/3/7", "B/2004/4/7");
    }

    private static List<String> ids(SequenceBatch batch, String bizCode) {
        List<String> ids = new ArrayList<>();
        for (int index = 0; index < batch.size(); index++) {
            ids.add(batch.id(index, bizCode, WRITER));
        }
        return ids;
    }
}
