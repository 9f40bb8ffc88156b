package com.example.mybatisplus;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;

// ASSIGN_ID: the ID comes from the idgen generator of the table mp_order
@TableName("mp_order")
public class Order {

    @TableId(type = IdType.ASSIGN_ID)
    private Long id;

    private String item;

    public Order() {}

    public Order(String item) {
        this.item = item;
    }

    public Long getId() {
        return id;
    }

    public void setId(Long id) {
        this.id = id;
    }

    public String getItem() {
        return item;
    }

    public void setItem(String item) {
        this.item = item;
    }
}
