package com.example.shop;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

@Component
public class FirstOrder implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(FirstOrder.class);

    private final OrderService orders;

    public FirstOrder(OrderService orders) {
        this.orders = orders;
    }

    /** Runs once the application has started: saves an order and logs the ID idgen gave it. */
    @Override
    public void run(ApplicationArguments args) {
        PurchaseOrder order = orders.place("book");
        long trackingNumber = orders.nextTrackingNumber();
        log.info("Saved order {} ({}), tracking number {}", order.getId(), order.getItem(), trackingNumber);
    }
}
